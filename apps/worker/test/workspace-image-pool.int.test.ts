import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { POOLS_DIR, WorkspaceImagePool } from '../src/sandbox/workspace-image-pool.js';
import { canMountWorkspaceImages, WorkspaceQuota } from '../src/sandbox/workspace-quota.js';

const MiB = 1024 * 1024;

async function mounted(dir: string): Promise<boolean> {
  const mountinfo = await readFile('/proc/self/mountinfo', 'utf8');
  return mountinfo.split('\n').some((line) => line.split(' ')[4] === dir);
}

/** The pid of a process that has exited, as a crashed worker's would be. */
async function goneProcessPid(): Promise<number> {
  const child = spawn('true');
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

/**
 * Blank workspace images made ahead: an open takes a ready one (no mkfs on its path) and the pool makes the
 * next; what it holds is never mounted, and a pool whose worker is gone is removed by the next one.
 */
describe.runIf(canMountWorkspaceImages())('the workspace image pool', () => {
  let root: string;
  const errors: unknown[] = [];
  let pool: WorkspaceImagePool;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'images-'));
    errors.length = 0;
    pool = new WorkspaceImagePool(root, 32 * MiB, 2, (err) => errors.push(err));
  });

  afterEach(async () => {
    await pool.stop();
    await rm(root, { recursive: true, force: true });
  });

  const poolDir = () => join(root, POOLS_DIR, `${hostname()}-${process.pid}`);
  const readyImages = async () =>
    (await readdir(poolDir()).catch(() => [])).filter((f) => f.endsWith('.img'));

  it('keeps images ready, hands one to an open and makes the next', async () => {
    await pool.start();
    await vi.waitFor(async () => expect(await readyImages()).toHaveLength(2), { timeout: 20_000 });
    const before = await readyImages();
    const session = join(root, 'tenant', 'session');
    await mkdir(join(session, 'workspace'), { recursive: true, mode: 0o711 });

    const quota = await WorkspaceQuota.mount(session, join(session, 'workspace'), pool);

    expect(await mounted(join(session, 'workspace'))).toBe(true);
    expect((await readdir(session)).sort()).toEqual(['workspace', 'workspace.img']);
    // The open took one of the ready images rather than making its own, and the pool made the next.
    await vi.waitFor(
      async () => {
        const now = await readyImages();
        expect(now).toHaveLength(2);
        expect(now.filter((f) => before.includes(f))).toHaveLength(1);
      },
      { timeout: 20_000 },
    );
    // A new session's workspace is as the empty directory was: no lost+found, same mode.
    expect(await readdir(join(session, 'workspace'))).toEqual([]);
    expect((await stat(join(session, 'workspace'))).mode & 0o777).toBe(0o711);
    await quota.release();
    expect(await mounted(join(session, 'workspace'))).toBe(false);
    expect(errors).toEqual([]);
  });

  it('carries a restored workspace into the image and back out when it closes', async () => {
    await pool.start();
    const session = join(root, 'tenant', 'restored');
    const workspace = join(session, 'workspace');
    await mkdir(join(workspace, 'src'), { recursive: true });
    await writeFile(join(workspace, 'src', 'kept.txt'), 'kept');

    const quota = await WorkspaceQuota.mount(session, workspace, pool);

    expect(await mounted(workspace)).toBe(true);
    expect(await readFile(join(workspace, 'src', 'kept.txt'), 'utf8')).toBe('kept');
    expect(await mounted(join(session, 'workspace.quota'))).toBe(false);
    await writeFile(join(workspace, 'new.txt'), 'new');
    await quota.release();
    expect(await mounted(workspace)).toBe(false);
    expect((await readdir(workspace)).sort()).toEqual(['new.txt', 'src']);
    expect(await readdir(session)).toEqual(['workspace']);
  });

  it('makes an image on the spot when none is ready', async () => {
    const empty = new WorkspaceImagePool(root, 32 * MiB, 0, (err) => errors.push(err));
    await empty.start();
    const session = join(root, 'tenant', 'unpooled');
    await mkdir(join(session, 'workspace'), { recursive: true });
    const quota = await WorkspaceQuota.mount(session, join(session, 'workspace'), empty);
    expect(await mounted(join(session, 'workspace'))).toBe(true);
    await quota.release();
    await empty.stop();
  });

  it('removes its images when it stops, and those of a worker of this host that is gone', async () => {
    const crashed = join(root, POOLS_DIR, `${hostname()}-${await goneProcessPid()}`);
    await mkdir(crashed, { recursive: true });
    await writeFile(join(crashed, '1.img'), 'left by a crashed worker');
    const elsewhere = join(root, POOLS_DIR, 'another-host-1');
    await mkdir(elsewhere, { recursive: true });

    await pool.start();
    await vi.waitFor(async () => expect(await readyImages()).toHaveLength(2), { timeout: 20_000 });
    expect((await readdir(join(root, POOLS_DIR))).sort()).toEqual(
      [`${hostname()}-${process.pid}`, 'another-host-1'].sort(),
    );
    await pool.stop();
    expect(await readdir(join(root, POOLS_DIR))).toEqual(['another-host-1']);
  });
});
