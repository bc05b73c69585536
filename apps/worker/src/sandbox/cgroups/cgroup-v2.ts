import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { constants } from 'node:fs';
import { join } from 'node:path';
import {
  SessionCgroup,
  type EnforcedCaps,
  type SessionCaps,
  type SessionCgroupFactory,
} from './session-cgroup.js';

const CPU_PERIOD_US = 100_000;
/** Where the worker's own processes move to, so its cgroup may hand controllers to its children. */
const WORKER_LEAF = 'agentry-worker';

/**
 * Session cgroups on cgroup v2: one directory per session below the worker's delegated cgroup. v2 lets a
 * cgroup enable controllers for its children only while it holds no process itself, so the worker first
 * moves its own processes into a leaf of their own.
 */
export class CgroupV2Sessions implements SessionCgroupFactory {
  readonly enforced: EnforcedCaps = { memory: false, processes: false, cpu: false };

  constructor(
    private readonly dir: string,
    private readonly caps: SessionCaps,
  ) {}

  async prepare(): Promise<boolean> {
    const writable = await access(join(this.dir, 'cgroup.subtree_control'), constants.W_OK).then(
      () => true,
      () => false,
    );
    if (!writable) return false;
    const available = (await readFile(join(this.dir, 'cgroup.controllers'), 'utf8')).split(/\s+/);
    const wanted = ['memory', 'pids', 'cpu'].filter((c) => available.includes(c));
    if (wanted.length === 0) return false;
    await this.leaveForLeaf();
    await writeFile(join(this.dir, 'cgroup.subtree_control'), wanted.map((c) => `+${c}`).join(' '));
    // The kernel lists them without the `+` they were enabled with.
    const enabled = (await readFile(join(this.dir, 'cgroup.subtree_control'), 'utf8'))
      .split(/\s+/)
      .map((c) => c.replace(/^\+/, ''));
    this.enforced.memory = enabled.includes('memory');
    this.enforced.processes = enabled.includes('pids');
    this.enforced.cpu = enabled.includes('cpu');
    return this.enforced.memory || this.enforced.processes || this.enforced.cpu;
  }

  async create(name: string): Promise<SessionCgroup | null> {
    const dir = join(this.dir, name);
    await mkdir(dir, { recursive: true });
    const { memoryBytes, processes, cpus } = this.caps;
    try {
      if (this.enforced.memory) {
        await writeFile(join(dir, 'memory.max'), String(memoryBytes));
        await writeFile(join(dir, 'memory.swap.max'), '0').catch(() => undefined);
      }
      if (this.enforced.processes) await writeFile(join(dir, 'pids.max'), String(processes));
      if (this.enforced.cpu) {
        await writeFile(join(dir, 'cpu.weight'), '100');
        await writeFile(join(dir, 'cpu.max'), `${Math.round(cpus * CPU_PERIOD_US)} ${CPU_PERIOD_US}`);
      }
    } catch (error) {
      await new SessionCgroup([dir], null, null).remove();
      throw error;
    }
    return new SessionCgroup(
      [dir],
      this.enforced.memory ? { file: join(dir, 'memory.events'), key: 'oom_kill' } : null,
      this.enforced.processes ? join(dir, 'pids.events') : null,
    );
  }

  private async leaveForLeaf(): Promise<void> {
    const procs = (await readFile(join(this.dir, 'cgroup.procs'), 'utf8')).split('\n').filter(Boolean);
    if (procs.length === 0) return;
    const leaf = join(this.dir, WORKER_LEAF);
    await mkdir(leaf, { recursive: true });
    // One at a time: the kernel takes one pid per write.
    for (const pid of procs) await writeFile(join(leaf, 'cgroup.procs'), pid).catch(() => undefined);
  }
}
