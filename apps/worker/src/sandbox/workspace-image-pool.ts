import { execFile } from 'node:child_process';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SYSTEM_PATH = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' };
/** How long after a take the next image is made: not while the open that took one mounts it. */
const REFILL_DELAY_MS = 1_000;
/** Where the pools live, under the workdir root (its name is no session's tenant: the sweep passes it by). */
export const POOLS_DIR = '.workspace-images';

/** Makes a blank ext4 image of `bytes` at `path` (sparse: a few MB on disk whatever its size). */
async function makeBlankImage(path: string, bytes: number): Promise<void> {
  const file = await open(path, 'w');
  try {
    await file.truncate(bytes);
  } finally {
    await file.close();
  }
  await run('mkfs.ext4', ['-q', '-F', '-m', '0', '-E', 'lazy_itable_init=1,lazy_journal_init=1', path], {
    env: SYSTEM_PATH,
  });
}

export async function mountImage(image: string, dir: string): Promise<void> {
  await run('mount', ['-o', 'loop,nosuid,nodev', image, dir], { env: SYSTEM_PATH });
}

/**
 * Blank workspace quota images made ahead of the sandboxes that take them, so that opening a sandbox
 * renames one into the session's directory instead of running mkfs.ext4 on the path of its first call.
 * Each worker process keeps `size` ready in its own directory, `<root>/.workspace-images/<host>-<pid>/`,
 * refilled in the background a second after each take (not while that open mounts it); an image is made
 * under a temporary name and renamed once whole. Nothing in a pool is mounted, so a worker that dies leaves
 * only files: its directory is removed when the pool stops, and the pools of processes of this host that
 * are gone when another pool starts or the orphan sweep runs.
 */
export class WorkspaceImagePool {
  private readonly dir: string;
  private readonly ready: string[] = [];
  private making: Promise<void> | null = null;
  private refillTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  private made = 0;

  constructor(
    private readonly root: string,
    private readonly bytes: number,
    private readonly size: number,
    private readonly onError: (err: unknown) => void,
    private readonly owner = `${hostname()}-${process.pid}`,
  ) {
    this.dir = join(root, POOLS_DIR, owner);
  }

  /** Removes what pools of gone processes left, then fills this one in the background. */
  async start(): Promise<void> {
    await this.removeAbandoned();
    await rm(this.dir, { recursive: true, force: true });
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    this.refill();
  }

  /** Puts a blank image at `image`: a ready one when there is one, else one made now. */
  async take(image: string): Promise<void> {
    const ready = this.ready.shift();
    if (!this.refillTimer)
      this.refillTimer = setTimeout(() => {
        this.refillTimer = undefined;
        this.refill();
      }, REFILL_DELAY_MS).unref();
    if (ready) {
      try {
        await rename(ready, image);
        return;
      } catch (err) {
        this.onError(err);
      }
    }
    await rm(image, { force: true });
    await makeBlankImage(image, this.bytes);
  }

  /** Waits for the image being made, then removes the pool with what it holds. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.refillTimer);
    await this.making;
    this.ready.length = 0;
    await rm(this.dir, { recursive: true, force: true });
  }

  /** Removes the pools of this host's processes that are gone. */
  async removeAbandoned(): Promise<void> {
    const pools = join(this.root, POOLS_DIR);
    const host = `${hostname()}-`;
    for (const owner of await readdir(pools).catch(() => [] as string[])) {
      if (owner === this.owner || !owner.startsWith(host)) continue;
      const pid = Number(owner.slice(host.length));
      if (Number.isInteger(pid) && pid > 0 && !isAlive(pid))
        await rm(join(pools, owner), { recursive: true, force: true });
    }
  }

  private refill(): void {
    if (this.stopped || this.making || this.ready.length >= this.size) return;
    this.making = this.makeOne().then(
      () => {
        this.making = null;
        this.refill();
      },
      (err: unknown) => {
        // Not retried until the next take: opens make their own image meanwhile.
        this.making = null;
        this.onError(err);
      },
    );
  }

  private async makeOne(): Promise<void> {
    this.made += 1;
    const image = join(this.dir, `${this.made}.img`);
    await makeBlankImage(`${image}.partial`, this.bytes);
    await rename(`${image}.partial`, image);
    if (this.stopped) await rm(image, { force: true });
    else this.ready.push(image);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
