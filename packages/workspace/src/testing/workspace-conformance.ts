import { afterEach, describe, expect, it } from 'vitest';
import type { WorkspaceFs } from '../port.js';
import type { WorkspaceFactory, WorkspaceUnderTest } from './conformance-types.js';
import { expectAppError } from './expect-app-error.js';
import { runWorkspaceSafetyConformance } from './workspace-safety-conformance.js';

const paths = (entries: { path: string }[]) => entries.map((e) => e.path);

async function collect(stream: AsyncIterable<Uint8Array>): Promise<{ bytes: Buffer; chunks: number }> {
  const parts: Uint8Array[] = [];
  for await (const chunk of stream) parts.push(chunk);
  return { bytes: Buffer.concat(parts), chunks: parts.length };
}

/**
 * The contract every WorkspaceFs backend passes: call it from the backend's test file with a factory that
 * returns a fresh, empty workspace. Covers semantics, typed errors, CAS, concurrency, large files and safety.
 */
export function runWorkspaceConformance(name: string, factory: WorkspaceFactory): void {
  describe(`${name}: workspace conformance`, () => {
    const opened: WorkspaceUnderTest[] = [];
    const openHarness = async (options = {}): Promise<WorkspaceUnderTest> => {
      const ws = await factory(options);
      opened.push(ws);
      return ws;
    };
    const open = async (options = {}): Promise<WorkspaceFs> => (await openHarness(options)).fs;
    afterEach(async () => {
      for (const ws of opened.splice(0)) await ws.cleanup?.();
    });

    it('round-trips text and bytes and reports stat', async () => {
      const fs = await open();
      const written = await fs.writeText('notes/a.md', 'héllo\nworld\n');
      expect(written).toMatchObject({ path: 'notes/a.md', kind: 'file', size: 13 });
      expect(await fs.readText('notes/a.md')).toBe('héllo\nworld\n');
      const all = Uint8Array.from({ length: 256 }, (_, i) => i);
      await fs.writeBytes('bin/all.bin', all);
      expect(Buffer.from(await fs.readBytes('bin/all.bin')).equals(Buffer.from(all))).toBe(true);
      expect(await fs.stat('notes')).toMatchObject({ kind: 'directory' });
      expect(await fs.stat('missing.md')).toBeNull();
      expect(await fs.exists('notes/a.md')).toBe(true);
      expect(await fs.exists('notes/b.md')).toBe(false);
      expect((await fs.stat('notes/a.md'))?.version).toBe(written.version);
    });

    it('reports typed errors for missing files, directories and bad parents', async () => {
      const fs = await open();
      await expectAppError(fs.readText('nope.txt'), 'NOT_FOUND');
      await fs.mkdir('dir');
      await expectAppError(fs.readText('dir'), 'INVALID_REQUEST');
      await expectAppError(fs.writeText('dir', 'x'), 'INVALID_REQUEST');
      await expectAppError(fs.writeText('new/deep/file.txt', 'x', { createParents: false }), 'NOT_FOUND');
      await fs.writeText('plain.txt', 'x');
      await expectAppError(fs.writeText('plain.txt/child.txt', 'x'), 'INVALID_REQUEST');
      await expectAppError(fs.mkdir('plain.txt'), 'ALREADY_EXISTS');
      await fs.mkdir('dir');
      await fs.mkdir('a/b/c');
      expect(await fs.stat('a/b/c')).toMatchObject({ kind: 'directory' });
    });

    it('versions writes and honours compare-and-set', async () => {
      const fs = await open();
      const v1 = await fs.writeText('cas.txt', 'one', { ifVersion: null });
      await expectAppError(fs.writeText('cas.txt', 'again', { ifVersion: null }), 'ALREADY_EXISTS');
      const v2 = await fs.writeText('cas.txt', 'two', { ifVersion: v1.version });
      expect(v2.version).not.toBe(v1.version);
      await expectAppError(fs.writeText('cas.txt', 'stale', { ifVersion: v1.version }), 'CONFLICT');
      expect(await fs.readText('cas.txt')).toBe('two');
      await expectAppError(fs.writeText('absent.txt', 'x', { ifVersion: v2.version }), 'CONFLICT');
      expect(await fs.exists('absent.txt')).toBe(false);
      const v3 = await fs.writeText('cas.txt', 'two');
      expect(v3.version).not.toBe(v2.version);
    });

    it('lets exactly one of two racing CAS writers win', async () => {
      const fs = await open();
      const base = await fs.writeText('race.txt', 'base');
      for (let round = 0; round < 5; round++) {
        const current = (await fs.stat('race.txt'))!.version;
        const results = await Promise.allSettled([
          fs.writeText('race.txt', `A${round}`, { ifVersion: current }),
          fs.writeText('race.txt', `B${round}`, { ifVersion: current }),
        ]);
        const won = results.filter((r) => r.status === 'fulfilled');
        expect(won).toHaveLength(1);
        const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
        expect(lost.reason).toMatchObject({ code: 'CONFLICT' });
        expect(await fs.readText('race.txt')).toMatch(new RegExp(`^[AB]${round}$`));
      }
      const creators = await Promise.allSettled([
        fs.writeText('new.txt', 'A', { ifVersion: null }),
        fs.writeText('new.txt', 'B', { ifVersion: null }),
      ]);
      expect(creators.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(base.version).toBeTruthy();
    });

    it('appends atomically, creating the file when missing', async () => {
      const fs = await open();
      await fs.appendText('log/events.log', 'first\n');
      await Promise.all(Array.from({ length: 20 }, (_, i) => fs.appendText('log/events.log', `line ${i}\n`)));
      const lines = (await fs.readText('log/events.log')).trim().split('\n');
      expect(lines).toHaveLength(21);
      expect(lines[0]).toBe('first');
      expect(new Set(lines).size).toBe(21);
    });

    it('lists directories flat, recursively, by glob and with a limit', async () => {
      const fs = await open();
      for (const p of ['a.md', 'b.txt', 'docs/c.md', 'docs/deep/d.md', '.hidden/e.md'])
        await fs.writeText(p, p);
      expect(paths(await fs.list(''))).toEqual(['.hidden', 'a.md', 'b.txt', 'docs']);
      expect(paths(await fs.list('docs', { recursive: true }))).toEqual([
        'docs/c.md',
        'docs/deep',
        'docs/deep/d.md',
      ]);
      expect(paths(await fs.list('', { glob: '**/*.md' }))).toEqual([
        '.hidden/e.md',
        'a.md',
        'docs/c.md',
        'docs/deep/d.md',
      ]);
      expect(paths(await fs.list('', { glob: '*.md' }))).toEqual(['a.md']);
      expect(paths(await fs.list('docs', { recursive: true, glob: '*.md' }))).toEqual(['docs/c.md']);
      expect(await fs.list('', { recursive: true, limit: 2 })).toHaveLength(2);
      await expectAppError(fs.list('missing'), 'NOT_FOUND');
      await expectAppError(fs.list('a.md'), 'INVALID_REQUEST');
      const [file] = await fs.list('docs', { glob: 'c.md' });
      expect(file).toMatchObject({ path: 'docs/c.md', kind: 'file', size: 9 });
    });

    it('greps lines with numbers, case folding, globs and a cap', async () => {
      const fs = await open();
      await fs.writeText('src/a.ts', 'const TODO = 1;\nok\n// todo: later\n');
      await fs.writeText('src/b.md', 'TODO in markdown\n');
      await fs.writeText('other/c.ts', 'TODO elsewhere\n');
      await fs.writeBytes('src/bin.dat', Uint8Array.from([84, 79, 68, 79, 0, 1]));
      expect(await fs.grep('TODO', { path: 'src' })).toEqual([
        { path: 'src/a.ts', line: 1, text: 'const TODO = 1;' },
        { path: 'src/b.md', line: 1, text: 'TODO in markdown' },
      ]);
      expect(await fs.grep(/todo/, { ignoreCase: true, glob: '*.ts' })).toHaveLength(3);
      expect(await fs.grep('TODO', { maxMatches: 2 })).toHaveLength(2);
      expect(await fs.grep('^ok$', { path: 'src/a.ts' })).toEqual([
        { path: 'src/a.ts', line: 2, text: 'ok' },
      ]);
      await expectAppError(fs.grep('(unclosed'), 'INVALID_REQUEST');
      await expectAppError(fs.grep('x', { path: 'nowhere' }), 'NOT_FOUND');
    });

    it('moves files and directories with overwrite rules', async () => {
      const fs = await open();
      await fs.writeText('a.txt', 'A');
      await fs.writeText('b.txt', 'B');
      await expectAppError(fs.move('a.txt', 'b.txt'), 'ALREADY_EXISTS');
      await fs.move('a.txt', 'b.txt', { overwrite: true });
      expect(await fs.readText('b.txt')).toBe('A');
      expect(await fs.exists('a.txt')).toBe(false);
      await fs.move('b.txt', 'moved/into/new.txt');
      expect(await fs.readText('moved/into/new.txt')).toBe('A');
      await fs.writeText('tree/x/1.txt', '1');
      await fs.writeText('tree/2.txt', '2');
      await fs.move('tree', 'renamed');
      expect(paths(await fs.list('renamed', { recursive: true }))).toEqual([
        'renamed/2.txt',
        'renamed/x',
        'renamed/x/1.txt',
      ]);
      expect(await fs.exists('tree')).toBe(false);
      await expectAppError(fs.move('renamed', 'renamed/inside'), 'INVALID_REQUEST');
      await expectAppError(fs.move('ghost.txt', 'x.txt'), 'NOT_FOUND');
    });

    it('deletes files and directories', async () => {
      const fs = await open();
      await fs.writeText('d/one.txt', '1');
      await fs.writeText('d/sub/two.txt', '2');
      await expectAppError(fs.delete('d'), 'CONFLICT');
      await fs.delete('d/one.txt');
      expect(await fs.exists('d/one.txt')).toBe(false);
      await fs.delete('d', { recursive: true });
      expect(await fs.exists('d/sub/two.txt')).toBe(false);
      expect(await fs.list('')).toEqual([]);
      await expectAppError(fs.delete('d'), 'NOT_FOUND');
      await expectAppError(fs.delete(''), 'INVALID_REQUEST');
      await fs.mkdir('empty');
      await fs.delete('empty');
      expect(await fs.exists('empty')).toBe(false);
    });

    it('streams large files and enforces the size limit', async () => {
      const fs = await open();
      const big = Buffer.alloc(5 * 1024 * 1024 + 17);
      for (let i = 0; i < big.length; i += 4096) big[i] = (i / 4096) % 251;
      await fs.writeBytes('big.bin', big);
      expect((await fs.stat('big.bin'))?.size).toBe(big.length);
      const { bytes, chunks } = await collect(fs.readStream('big.bin'));
      expect(bytes.equals(big)).toBe(true);
      expect(chunks).toBeGreaterThan(1);
      await expectAppError(collect(fs.readStream('absent.bin')), 'NOT_FOUND');

      const small = await open({ maxFileBytes: 64 * 1024 });
      await expectAppError(small.writeBytes('huge.bin', new Uint8Array(64 * 1024 + 1)), 'PAYLOAD_TOO_LARGE');
      await small.writeBytes('edge.bin', new Uint8Array(64 * 1024 - 1));
      await small.appendText('edge.bin', 'x');
      await expectAppError(small.appendText('edge.bin', 'y'), 'PAYLOAD_TOO_LARGE');
      expect((await small.stat('edge.bin'))?.size).toBe(64 * 1024);
      expect(await small.exists('huge.bin')).toBe(false);
    });

    runWorkspaceSafetyConformance(openHarness);
  });
}
