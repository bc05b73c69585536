import { readdir, readFile } from 'node:fs/promises';

/** What one process holds right now: resident memory and open file descriptors (sockets, files, pipes). */
export interface ProcessUsage {
  rssBytes: number;
  openFiles: number;
}

/** Reads a live process's usage from /proc; undefined when it has gone. */
export async function processUsage(pid: number): Promise<ProcessUsage | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const rssKb = Number(/^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1] ?? 0);
    const fds = await readdir(`/proc/${pid}/fd`);
    return { rssBytes: rssKb * 1024, openFiles: fds.length };
  } catch {
    return undefined;
  }
}
