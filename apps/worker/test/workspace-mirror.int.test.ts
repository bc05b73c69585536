import { createHash, randomBytes } from 'node:crypto';
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readlink,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlPool } from '@agentry/db';
import { createTestDatabase, type TestDatabase } from '@agentry/testing';
import {
  DurableCopy,
  FencedOutError,
  type HandsBindingToken,
  type SqlPort,
} from '../src/workspace/durable-copy.js';
import { WorkspaceMirror } from '../src/workspace/workspace-mirror.js';

/** A pool that counts the statements sent through it and the bytes of their parameters. */
function countingPort(pool: SqlPort) {
  const counts = { statements: 0, bytes: 0 };
  const port: SqlPort = {
    query(query, values = []) {
      counts.statements++;
      const sent = typeof query === 'string' ? values : query.values;
      counts.bytes += sent.reduce<number>((sum, v) => sum + paramBytes(v), 0);
      return typeof query === 'string' ? pool.query(query, values) : pool.query(query);
    },
  };
  return { port, counts };
}

function paramBytes(value: unknown): number {
  if (Buffer.isBuffer(value)) return value.length;
  if (Array.isArray(value)) return value.reduce<number>((sum, v) => sum + paramBytes(v), 0);
  return typeof value === 'string' ? Buffer.byteLength(value) : 8;
}

const sha256 = async (path: string) =>
  createHash('sha256')
    .update(await readFile(path))
    .digest('hex');

describe("a session's durable copy: fenced, exact, incremental", () => {
  let db: TestDatabase;
  let pool: ReturnType<typeof createSqlPool>;
  let dir: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = createSqlPool(db.url, 4);
    dir = await mkdtemp(join(tmpdir(), 'mirror-'));
  });

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  const token = (sessionId: string, epoch: number, workerId: string): HandsBindingToken => ({
    tenantId: 'tenant_mirror',
    sessionId,
    epoch,
    workerId,
  });

  async function mirrorFor(t: HandsBindingToken, local: string, port: SqlPort = pool) {
    expect((await DurableCopy.claim(pool, t)).claimed).toBe(true);
    return new WorkspaceMirror(local, new DurableCopy(port, t, `root/${t.sessionId}`));
  }

  it('after one 1 KB write into 10,000 files, stores that file alone (two statements, ~1 KB)', async () => {
    const local = join(dir, 'big-tree');
    for (let d = 0; d < 100; d++) {
      await mkdir(join(local, `d${d}`), { recursive: true });
      for (let f = 0; f < 100; f++) await writeFile(join(local, `d${d}`, `f${f}.txt`), `file ${d}/${f}\n`);
    }
    const { port, counts } = countingPort(pool);
    const mirror = await mirrorFor(token('sesn_tree', 1, 'w1'), local, port);
    const first = await mirror.sync();
    expect(first.written).toBe(10_100);

    counts.statements = 0;
    counts.bytes = 0;
    await writeFile(join(local, 'd42', 'new.txt'), randomBytes(1024));
    const second = await mirror.sync();
    // The new file and nothing else (its directory's mode did not change).
    expect(second).toEqual({ written: 1, removed: 0, bytes: 1024 });
    expect(counts.statements).toBeLessThanOrEqual(2);
    expect(counts.bytes).toBeLessThan(2048);
    const { rows } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM hands_workspace_files WHERE root = 'root/sesn_tree'`,
    );
    expect(rows[0]!.n).toBe(10_101);

    // A `write` names its file: that path alone is looked at, not the tree. A file written beside it by
    // another process is left for the next whole sync, which shows the tree was not walked.
    counts.statements = 0;
    await writeFile(join(local, 'd7', 'beside.txt'), 'not named\n');
    await mkdir(join(local, 'new', 'deeper'), { recursive: true });
    await writeFile(join(local, 'new', 'deeper', 'named.txt'), randomBytes(1024));
    const named = await mirror.syncPath('new/deeper/named.txt');
    // The file and the two directories created on its way, in one statement.
    expect(named).toEqual({ written: 3, removed: 0, bytes: 1024 });
    expect(counts.statements).toBe(1);
    const stored = async () =>
      (
        await pool.query<{ path: string }>(
          `SELECT path FROM hands_workspace_files WHERE root = 'root/sesn_tree' AND path IN ('d7/beside.txt', 'new', 'new/deeper', 'new/deeper/named.txt') ORDER BY path`,
        )
      ).rows.map((r) => r.path);
    expect(await stored()).toEqual(['new', 'new/deeper', 'new/deeper/named.txt']);
    expect(await mirror.sync()).toEqual({ written: 1, removed: 0, bytes: 10 });
    expect(await stored()).toContain('d7/beside.txt');
  }, 120_000);

  it('leaves a path it cannot tell alone to the whole sync: a symlink on the way, nothing changed there', async () => {
    const local = join(dir, 'hinted');
    await mkdir(join(local, 'real'), { recursive: true });
    await symlink('real', join(local, 'link'));
    const mirror = await mirrorFor(token('sesn_hinted', 1, 'w1'), local);
    await mirror.sync();
    await writeFile(join(local, 'real', 'a.txt'), 'through the link\n');
    expect(await mirror.syncPath('link/a.txt')).toBeNull();
    expect(await mirror.syncPath('real/a.txt')).toEqual({ written: 1, removed: 0, bytes: 17 });
    // Stored already, unchanged since: nothing to tell from the path, so the caller looks at the tree.
    expect(await mirror.syncPath('real/a.txt')).toBeNull();
    expect(await mirror.syncPath('missing.txt')).toBeNull();
    expect(await mirror.sync()).toEqual({ written: 0, removed: 0, bytes: 0 });
  });

  it('with the shell state, stores a file rewritten with its old content no more, and a changed one again', async () => {
    const local = join(dir, 'shell-state');
    await mkdir(local, { recursive: true });
    await writeFile(join(local, 'cwd'), '/workspace\n');
    const { port, counts } = countingPort(pool);
    const t = token('sesn_shell', 1, 'w1');
    expect((await DurableCopy.claim(pool, t)).claimed).toBe(true);
    const durable = new DurableCopy(port, t, 'root/sesn_shell');
    const mirror = new WorkspaceMirror(local, durable, () => true, true);
    expect((await mirror.sync()).written).toBe(1);

    counts.statements = 0;
    // Each command saves its state anew (a new file renamed over the old one): the same cwd costs nothing.
    await writeFile(join(local, 'cwd.next'), '/workspace\n');
    await rm(join(local, 'cwd'));
    await writeFile(join(local, 'cwd'), '/workspace\n');
    await rm(join(local, 'cwd.next'));
    expect(await mirror.sync()).toEqual({ written: 0, removed: 0, bytes: 0 });
    expect(counts.statements).toBe(0);

    await writeFile(join(local, 'cwd'), '/workspace/src\n');
    expect(await mirror.sync()).toMatchObject({ written: 1 });
    const restored = join(dir, 'shell-state-restored');
    expect((await DurableCopy.claim(pool, token('sesn_shell', 2, 'w2'))).claimed).toBe(true);
    await new WorkspaceMirror(
      restored,
      new DurableCopy(pool, token('sesn_shell', 2, 'w2'), 'root/sesn_shell'),
      () => true,
      true,
    ).restore();
    expect(await readFile(join(restored, 'cwd'), 'utf8')).toBe('/workspace/src\n');
  });

  it('restores modes, symlinks, empty directories and a large file byte for byte', async () => {
    const from = join(dir, 'exact-from');
    await mkdir(join(from, 'bin'), { recursive: true });
    await writeFile(join(from, 'bin', 'run.sh'), '#!/bin/sh\necho ran\n');
    await chmod(join(from, 'bin', 'run.sh'), 0o755);
    await mkdir(join(from, 'empty', 'nested'), { recursive: true });
    await symlink('bin/run.sh', join(from, 'link'));
    await symlink('/etc/passwd', join(from, 'outside'));
    await writeFile(join(from, 'large.bin'), randomBytes(9 * 1024 * 1024 + 17));
    await mkdir(join(from, 'private'), { mode: 0o700 });
    const mirror = await mirrorFor(token('sesn_exact', 1, 'w1'), from);
    await mirror.sync();

    const to = join(dir, 'exact-to');
    await mkdir(to, { recursive: true });
    await writeFile(join(to, 'stale.txt'), 'from an older binding');
    await (await mirrorFor(token('sesn_exact', 2, 'w2'), to)).restore();

    expect((await stat(join(to, 'bin', 'run.sh'))).mode & 0o777).toBe(0o755);
    expect((await stat(join(to, 'private'))).mode & 0o777).toBe(0o700);
    expect(await readlink(join(to, 'link'))).toBe('bin/run.sh');
    expect(await readFile(join(to, 'link'), 'utf8')).toMatch(/echo ran/);
    // Stored as a link, never followed: the host file behind it was not copied in.
    expect((await lstat(join(to, 'outside'))).isSymbolicLink()).toBe(true);
    expect((await stat(join(to, 'empty', 'nested'))).isDirectory()).toBe(true);
    expect(await sha256(join(to, 'large.bin'))).toBe(await sha256(join(from, 'large.bin')));
    await expect(stat(join(to, 'stale.txt'))).rejects.toThrow(/ENOENT/);
  }, 60_000);

  it('refuses every save of a binding a newer one took over, and keeps what the newer one wrote', async () => {
    const a = join(dir, 'fence-a');
    const b = join(dir, 'fence-b');
    await mkdir(a, { recursive: true });
    const older = await mirrorFor(token('sesn_fence', 5, 'worker-a'), a);
    await writeFile(join(a, 'state.txt'), 'first');
    await older.sync();

    await mkdir(b, { recursive: true });
    const newer = await mirrorFor(token('sesn_fence', 6, 'worker-b'), b);
    await newer.restore();
    await writeFile(join(b, 'state.txt'), 'second');
    await newer.sync();

    // The older worker wakes up and saves what it has: refused, for content, new files and deletions alike.
    await writeFile(join(a, 'state.txt'), 'stale');
    await writeFile(join(a, 'more.txt'), 'stale too');
    await expect(older.sync()).rejects.toBeInstanceOf(FencedOutError);
    await rm(join(a, 'state.txt'));
    await expect(older.sync()).rejects.toBeInstanceOf(FencedOutError);
    // Nor can it take the session back with its old epoch.
    expect((await DurableCopy.claim(pool, token('sesn_fence', 5, 'worker-a'))).claimed).toBe(false);

    const c = join(dir, 'fence-c');
    await (await mirrorFor(token('sesn_fence', 7, 'worker-a'), c)).restore();
    expect(await readFile(join(c, 'state.txt'), 'utf8')).toBe('second');
    await expect(stat(join(c, 'more.txt'))).rejects.toThrow(/ENOENT/);
  });
});
