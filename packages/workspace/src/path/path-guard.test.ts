import { describe, expect, it } from 'vitest';
import { ATTACK_PATHS, TRICKY_VALID_PATHS } from './attack-paths.js';
import { ancestorPaths, isWithinPath, normalizeWorkspacePath, parentPath, relativeTo } from './path-guard.js';

describe('path guard', () => {
  it('canonicalizes harmless spellings', () => {
    expect(normalizeWorkspacePath('')).toBe('');
    expect(normalizeWorkspacePath('./')).toBe('');
    expect(normalizeWorkspacePath('a//b/./c/')).toBe('a/b/c');
    expect(normalizeWorkspacePath('cafe\u0301.md')).toBe('caf\u00e9.md');
  });

  it('refuses every attack path with PATH_ESCAPE and a reason', () => {
    for (const attack of ATTACK_PATHS) {
      expect(() => normalizeWorkspacePath(attack), JSON.stringify(attack)).toThrowError(
        expect.objectContaining({ code: 'PATH_ESCAPE', details: { reason: expect.any(String) as unknown } }),
      );
    }
  });

  it('accepts odd but legitimate names unchanged', () => {
    for (const path of TRICKY_VALID_PATHS) expect(normalizeWorkspacePath(path)).toBe(path.normalize('NFC'));
  });

  it('accepts names up to the segment and path limits', () => {
    expect(normalizeWorkspacePath('a'.repeat(255))).toHaveLength(255);
    expect(() => normalizeWorkspacePath('é'.repeat(128))).toThrowError(
      expect.objectContaining({ code: 'PATH_ESCAPE' }),
    );
    expect(normalizeWorkspacePath(`${'d/'.repeat(2047)}f`)).toHaveLength(4095);
  });

  it('answers ancestry questions on normalized paths', () => {
    expect(parentPath('a/b/c')).toBe('a/b');
    expect(parentPath('a')).toBe('');
    expect(ancestorPaths('a/b/c')).toEqual(['a', 'a/b']);
    expect(isWithinPath('ab/c', 'a')).toBe(false);
    expect(isWithinPath('a/c', 'a')).toBe(true);
    expect(isWithinPath('anything', '')).toBe(true);
    expect(relativeTo('a/b/c', 'a')).toBe('b/c');
  });
});
