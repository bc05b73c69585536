import { describe, expect, it } from 'vitest';
import { testSubjectPrefix } from './test-subject-prefix.js';

describe('testSubjectPrefix', () => {
  it('gives distinct prefixes that form valid subject tokens', () => {
    const prefixes = new Set(Array.from({ length: 100 }, () => testSubjectPrefix()));
    expect(prefixes.size).toBe(100);
    for (const prefix of prefixes) {
      // No wildcards or whitespace, and a trailing dot so it composes with `evt.<id>` and the like.
      expect(prefix).toMatch(/^test-[0-9a-f]{12}\.$/);
    }
  });
});
