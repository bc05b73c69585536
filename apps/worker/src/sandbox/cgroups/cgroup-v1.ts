import { access, mkdir, writeFile } from 'node:fs/promises';
import { constants } from 'node:fs';
import { join } from 'node:path';
import type { SandboxController } from './cgroup-hierarchy.js';
import {
  SessionCgroup,
  type EnforcedCaps,
  type SessionCaps,
  type SessionCgroupFactory,
} from './session-cgroup.js';

const CFS_PERIOD_US = 100_000;

/**
 * Session cgroups on the v1 hierarchies: one directory under the worker's own cgroup in each of the memory,
 * pids and cpu hierarchies that is mounted and writable.
 */
export class CgroupV1Sessions implements SessionCgroupFactory {
  readonly enforced: EnforcedCaps = { memory: false, processes: false, cpu: false };

  constructor(
    private readonly dirs: Partial<Record<SandboxController, string>>,
    private readonly caps: SessionCaps,
  ) {}

  async prepare(): Promise<boolean> {
    const writable = async (dir: string | undefined) =>
      dir !== undefined &&
      (await access(join(dir, 'cgroup.procs'), constants.W_OK).then(
        () => true,
        () => false,
      ));
    this.enforced.memory = await writable(this.dirs.memory);
    this.enforced.processes = await writable(this.dirs.pids);
    this.enforced.cpu = await writable(this.dirs.cpu);
    return this.enforced.memory || this.enforced.processes || this.enforced.cpu;
  }

  async create(name: string): Promise<SessionCgroup | null> {
    const made: string[] = [];
    const make = async (controller: SandboxController, settings: Array<[string, string]>) => {
      const dir = join(this.dirs[controller]!, name);
      await mkdir(dir, { recursive: true });
      made.push(dir);
      // In order: the memory+swap limit may not be set below the memory limit.
      for (const [file, value] of settings)
        await writeFile(join(dir, file), value).catch(ignoreMissing(file));
      return dir;
    };
    const { memoryBytes, processes, cpus } = this.caps;
    let memory: string | null = null;
    let pids: string | null = null;
    try {
      if (this.enforced.memory)
        memory = await make('memory', [
          ['memory.limit_in_bytes', String(memoryBytes)],
          // Without swap accounting this file is absent: the limit then covers memory alone.
          ['memory.memsw.limit_in_bytes', String(memoryBytes)],
        ]);
      if (this.enforced.processes) pids = await make('pids', [['pids.max', String(processes)]]);
      if (this.enforced.cpu)
        await make('cpu', [
          ['cpu.shares', '1024'],
          ['cpu.cfs_period_us', String(CFS_PERIOD_US)],
          ['cpu.cfs_quota_us', String(Math.round(cpus * CFS_PERIOD_US))],
        ]);
    } catch (error) {
      await new SessionCgroup(made, null, null).remove();
      throw error;
    }
    return new SessionCgroup(
      made,
      memory ? { file: join(memory, 'memory.oom_control'), key: 'oom_kill' } : null,
      pids ? join(pids, 'pids.events') : null,
    );
  }
}

/** Optional knobs (swap accounting) are skipped when the kernel has not got them. */
function ignoreMissing(file: string) {
  return (error: NodeJS.ErrnoException) => {
    if (file === 'memory.memsw.limit_in_bytes' && (error.code === 'ENOENT' || error.code === 'EACCES'))
      return;
    throw error;
  };
}
