import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { mountImage, type WorkspaceImagePool } from './workspace-image-pool.js';

const run = promisify(execFile);
const SYSTEM_PATH = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' };

/** Whether this worker can give workspaces a quota: root, loop devices and the ext4 tools. */
export function canMountWorkspaceImages(): boolean {
  return (
    process.getuid?.() === 0 &&
    existsSync('/dev/loop-control') &&
    ['/sbin/mkfs.ext4', '/usr/sbin/mkfs.ext4'].some((p) => existsSync(p))
  );
}

async function isMountPoint(dir: string): Promise<boolean> {
  const mountinfo = await readFile('/proc/self/mountinfo', 'utf8');
  return mountinfo.split('\n').some((line) => line.split(' ')[4] === dir);
}

/**
 * Moves the mount at `from` onto `to` (one call instead of an unmount and a new loop mount). False where the
 * kernel refuses it (`from` under a shared mount): the caller mounts the image again instead.
 */
async function moveMount(from: string, to: string): Promise<boolean> {
  return run('mount', ['--move', from, to], { env: SYSTEM_PATH }).then(
    () => true,
    () => false,
  );
}

async function umount(dir: string): Promise<void> {
  await run('umount', [dir], { env: SYSTEM_PATH });
}

/**
 * A session workspace with a disk quota: while the sandbox is open, the workspace directory is an ext4
 * filesystem of the pool's size (a sparse image file beside it, loop-mounted), so writing past the quota
 * fails with ENOSPC inside the sandbox and on the worker alike. Opening takes a blank image from the pool
 * and mounts it over the directory, at once when it is empty (a new session's), else after copying in
 * what it holds; closing moves the files back and drops the image, so between opens the workspace is a
 * plain directory again (what the durable copy and other workers expect).
 */
export class WorkspaceQuota {
  private constructor(
    private readonly workspace: string,
    private readonly image: string,
  ) {}

  static async mount(
    sessionDir: string,
    workspace: string,
    pool: WorkspaceImagePool,
  ): Promise<WorkspaceQuota> {
    const image = join(sessionDir, 'workspace.img');
    const quota = new WorkspaceQuota(workspace, image);
    // Left mounted by a worker that died: still this session's, with its files.
    if (await isMountPoint(workspace)) return quota;
    const held = await stat(workspace);
    await pool.take(image);
    if ((await readdir(workspace)).length === 0) {
      await mountImage(image, workspace);
      await rm(join(workspace, 'lost+found'), { recursive: true, force: true });
    } else {
      const staging = join(sessionDir, 'workspace.quota');
      await mkdir(staging, { recursive: true });
      await mountImage(image, staging);
      try {
        await rm(join(staging, 'lost+found'), { recursive: true, force: true });
        await run('cp', ['-a', `${workspace}/.`, `${staging}/`], { env: SYSTEM_PATH });
        await emptyDir(workspace);
        if (!(await moveMount(staging, workspace))) {
          await umount(staging);
          await mountImage(image, workspace);
        }
      } finally {
        await WorkspaceQuota.discard(staging).catch(() => undefined);
        await rm(staging, { recursive: true, force: true });
      }
    }
    // The new filesystem's root is made like the directory it covers.
    await chown(workspace, held.uid, held.gid);
    await chmod(workspace, held.mode & 0o7777);
    return quota;
  }

  /** Unmounts a workspace a dead worker left mounted (lazily: nothing may still use it), before it is removed. */
  static async discard(workspace: string): Promise<void> {
    if (await isMountPoint(workspace)) await run('umount', ['-l', workspace], { env: SYSTEM_PATH });
  }

  /** Puts the files back into the plain directory and drops the image. */
  async release(): Promise<void> {
    if (!(await isMountPoint(this.workspace))) return;
    const staging = `${this.workspace}.quota`;
    await mkdir(staging, { recursive: true });
    await run('cp', ['-a', `${this.workspace}/.`, `${staging}/`], { env: SYSTEM_PATH });
    await umount(this.workspace);
    await emptyDir(this.workspace);
    await run('cp', ['-a', `${staging}/.`, `${this.workspace}/`], { env: SYSTEM_PATH });
    await rm(staging, { recursive: true, force: true });
    await rm(this.image, { force: true });
  }
}

async function emptyDir(dir: string): Promise<void> {
  for (const entry of await readdir(dir)) await rm(join(dir, entry), { recursive: true, force: true });
}
