import { describe, expect, it } from 'vitest';
import { AppError } from '@agentry/contracts';
import { assertStorableText, textProblem } from './text-guard.js';

describe('storable text', () => {
  it('accepts ordinary text, emoji (paired surrogates) and non-strings', () => {
    expect(textProblem('héllo 👋 世界')).toBeUndefined();
    expect(() => assertStorableText({ a: ['x', 1, null, { b: '😀' }] }, 'body')).not.toThrow();
  });

  it('names the field holding a NUL or a lone surrogate', () => {
    const nul = () => assertStorableText({ name: 'a\u0000b' }, 'body');
    expect(nul).toThrow(AppError);
    expect(nul).toThrow(/^name: contains a NUL/);
    expect(() => assertStorableText({ tools: [{ x: 'a\uD800' }] }, 'body')).toThrow(
      /^tools\.0\.x: contains an unpaired/,
    );
    expect(() => assertStorableText({ x: '\uDC00b' }, 'body')).toThrow(/unpaired/);
    expect(() => assertStorableText({ ['k\u0000']: 1 }, 'body')).toThrow(/^body: a field name/);
    expect(() => assertStorableText('a\u0000', 'query')).toThrow(/^query: /);
  });

  it('rejects nesting deeper than any request needs', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(() => assertStorableText(deep, 'body')).toThrow(/nested deeper/);
  });
});
