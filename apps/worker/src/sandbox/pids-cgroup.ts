import { access, mkdir, rmdir, writeFile } from 'node:fs/promises';
import { constants } from 'node:fs';
import { join } from 'node:path';

/**
 * A pids cgroup per session, so a fork bomb hits a process cap instead of the node's pid table. Best
 * effort: where no writable pids hierarchy exists (most unprivileged pods) there is none, and the
 * per-call timeout and the sandbox's pid namespace still end every process.
 */
export async function createPidsCgroup(
  root: string,
  name: string,
  maxProcesses: number,
): Promise<string | undefined> {
  if (!root) return undefined;
  try {
    await access(join(root, 'cgroup.procs'), constants.W_OK);
    const dir = join(root, name);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'pids.max'), String(maxProcesses));
    return dir;
  } catch {
    return undefined;
  }
}

export async function removePidsCgroup(dir: string | undefined): Promise<void> {
  if (dir) await rmdir(dir).catch(() => undefined); // still busy: the kernel keeps it until empty
}
