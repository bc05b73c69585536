import fc from 'fast-check';
import { expect, it } from 'vitest';
import { ATTACK_PATHS, TRICKY_VALID_PATHS } from '../path/attack-paths.js';
import { normalizeWorkspacePath } from '../path/path-guard.js';
import type { WorkspaceFactoryOptions, WorkspaceUnderTest } from './conformance-types.js';
import { expectAppError } from './expect-app-error.js';

// Segments biased towards the pieces escapes are made of.
const SEGMENT = fc.oneof(
  fc.constantFrom(
    '..',
    '.',
    '',
    'a',
    'b',
    '...',
    '%2e%2e',
    '\\',
    '..\\',
    'C:',
    '~',
    'é',
    'e\u0301',
    '\u0000',
    '\n',
    '\uff0e\uff0e',
    '\ud800',
    '\ud83d\ude00',
  ),
  fc.string({ maxLength: 4, unit: 'binary' }),
  fc.string({ maxLength: 6 }),
);
const PATH = fc
  .tuple(fc.boolean(), fc.array(SEGMENT, { minLength: 1, maxLength: 6 }))
  .map(([abs, segs]) => `${abs ? '/' : ''}${segs.join('/')}`);

/** Path-guard and isolation checks; part of runWorkspaceConformance. */
export function runWorkspaceSafetyConformance(
  open: (options?: WorkspaceFactoryOptions) => Promise<WorkspaceUnderTest>,
): void {
  it('rejects every attack path with PATH_ESCAPE and stores nothing', async () => {
    const ws = await open();
    const { fs } = ws;
    await fs.writeText('inside.txt', 'x');
    for (const attack of ATTACK_PATHS) {
      await expectAppError(fs.readText(attack), 'PATH_ESCAPE');
      await expectAppError(fs.writeText(attack, 'pwned'), 'PATH_ESCAPE');
      await expectAppError(fs.appendText(attack, 'pwned'), 'PATH_ESCAPE');
      await expectAppError(fs.stat(attack), 'PATH_ESCAPE');
      await expectAppError(fs.list(attack), 'PATH_ESCAPE');
      await expectAppError(fs.delete(attack, { recursive: true }), 'PATH_ESCAPE');
      await expectAppError(fs.move('inside.txt', attack), 'PATH_ESCAPE');
      await expectAppError(fs.move(attack, 'stolen.txt'), 'PATH_ESCAPE');
      await expectAppError(fs.grep('x', { path: attack }), 'PATH_ESCAPE');
    }
    expect((await fs.list('', { recursive: true })).map((e) => e.path)).toEqual(['inside.txt']);
    expect(await ws.escapedEntries?.()).toEqual(ws.escapedEntries ? [] : undefined);
  });

  it('accepts odd but legitimate names and normalizes Unicode to NFC', async () => {
    const { fs } = await open();
    for (const p of TRICKY_VALID_PATHS) {
      await fs.writeText(p, p);
      expect(await fs.readText(p)).toBe(p);
    }
    await fs.writeText('cafe\u0301.md', 'decomposed');
    expect(await fs.readText('caf\u00e9.md')).toBe('decomposed');
    expect((await fs.list('')).map((e) => e.path)).toContain('caf\u00e9.md');
    expect(await fs.readText('././/.../')).toBe('...');
  });

  it('never resolves a generated path outside the root (property)', async () => {
    const ws = await open();
    const { fs } = ws;
    await fc.assert(
      fc.asyncProperty(PATH, async (path) => {
        let expected: string | null = null;
        try {
          expected = normalizeWorkspacePath(path);
        } catch {
          expected = null;
        }
        const result = await fs.writeText(path, 'p').then(
          (stat) => stat.path,
          (error: { code?: string }) => error.code ?? 'UNKNOWN',
        );
        if (expected === null) {
          expect(result).toBe('PATH_ESCAPE');
        } else if (result !== 'INVALID_REQUEST' && result !== 'ALREADY_EXISTS') {
          // Writes that land are addressed by their normalized path, which never climbs or starts at "/".
          expect(result).toBe(expected);
          expect(result.split('/')).not.toContain('..');
          expect(result.startsWith('/')).toBe(false);
          expect(await fs.exists(expected)).toBe(true);
        }
      }),
      { numRuns: 150, seed: 42 },
    );
    expect(await ws.escapedEntries?.()).toEqual(ws.escapedEntries ? [] : undefined);
  });

  it('refuses symlinks that lead outside the root', async (ctx) => {
    const ws = await open();
    if (!ws.createSymlink || !ws.outsideDir) return ctx.skip();
    const { fs } = ws;
    await ws.createSymlink('escape', ws.outsideDir);
    await ws.createSymlink('passwd', `${ws.outsideDir}/secret.txt`);
    await ws.createSymlink('dangling', `${ws.outsideDir}/created-through-link.txt`);
    await expectAppError(fs.readText('escape/secret.txt'), 'PATH_ESCAPE');
    await expectAppError(fs.readText('passwd'), 'PATH_ESCAPE');
    await expectAppError(fs.writeText('escape/new.txt', 'x'), 'PATH_ESCAPE');
    await expectAppError(fs.writeText('dangling', 'x'), 'PATH_ESCAPE');
    await expectAppError(fs.appendText('dangling', 'x'), 'PATH_ESCAPE');
    await expectAppError(fs.list('escape'), 'PATH_ESCAPE');
    expect((await fs.list('', { recursive: true })).map((e) => e.path)).toEqual([]);
    expect(await ws.escapedEntries?.()).toEqual(ws.escapedEntries ? [] : undefined);
  });
}
