import { existsSync } from 'node:fs';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '@agentry/platform';

interface LockOwner {
  host: string;
  pid: number;
}

/**
 * Runs `build` unless `done` already exists, holding `lockPath` so that workers (and test runs) sharing a
 * cache build a userland once: a second one waits for the first and then finds it done. A lock whose
 * process is gone (same host) or that is older than `staleMs` (another host, on a shared volume) is taken
 * over.
 */
export async function buildOnce(
  lockPath: string,
  done: string,
  staleMs: number,
  clock: Clock,
  build: () => Promise<void>,
): Promise<void> {
  for (;;) {
    if (existsSync(done)) return;
    if (await acquire(lockPath, staleMs, clock)) break;
    await sleep(1_000);
  }
  try {
    if (!existsSync(done)) await build();
  } finally {
    await rm(lockPath, { force: true });
  }
}

async function acquire(lockPath: string, staleMs: number, clock: Clock): Promise<boolean> {
  const owner: LockOwner = { host: hostname(), pid: process.pid };
  try {
    await writeFile(lockPath, JSON.stringify(owner), { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  if (await isStale(lockPath, staleMs, clock)) await rm(lockPath, { force: true });
  return false;
}

async function isStale(lockPath: string, staleMs: number, clock: Clock): Promise<boolean> {
  try {
    const [text, info] = await Promise.all([readFile(lockPath, 'utf8'), stat(lockPath)]);
    const holder = JSON.parse(text) as LockOwner;
    if (holder.host === hostname()) return !alive(holder.pid);
    return clock.nowMs() - info.mtimeMs > staleMs;
  } catch {
    // Unreadable: written half by a process that died, or removed meanwhile.
    return true;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
