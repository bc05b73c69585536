import { readFile, rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Caps of one session's sandbox. */
export interface SessionCaps {
  memoryBytes: number;
  processes: number;
  cpus: number;
}

/** Which caps a worker's cgroups enforce (what is not is left to rlimits). */
export interface EnforcedCaps {
  memory: boolean;
  processes: boolean;
  cpu: boolean;
}

/** Makes a session's cgroup; one per worker, for the hierarchy it found. */
export interface SessionCgroupFactory {
  readonly enforced: EnforcedCaps;
  /** Readies the hierarchy (v2: enables the controllers for children); false when nothing can be enforced. */
  prepare(): Promise<boolean>;
  create(name: string): Promise<SessionCgroup | null>;
}

/** Kernel counters of limits a session hit (OOM kills, refused forks) and its processes right now. */
export interface LimitCounters {
  oomKills: number;
  forksRefused: number;
  processes: number;
}

/**
 * One session's cgroup: the directories its commands join (one per v1 controller, or one on v2) and the
 * event files whose counters say whether a limit stopped something.
 */
export class SessionCgroup {
  constructor(
    readonly dirs: readonly string[],
    private readonly oomEvents: { file: string; key: string } | null,
    private readonly pidsEvents: string | null,
  ) {}

  async counters(): Promise<LimitCounters> {
    const [oomKills, forksRefused, processes] = await Promise.all([
      this.oomEvents ? readCounter(this.oomEvents.file, this.oomEvents.key) : 0,
      this.pidsEvents ? readCounter(this.pidsEvents, 'max') : 0,
      this.pidsEvents ? readNumber(join(dirname(this.pidsEvents), 'pids.current')) : 0,
    ]);
    return { oomKills, forksRefused, processes };
  }

  /**
   * Removes the directories; one still holding processes stays until they end (the kernel refuses it). The
   * processes of a sandbox just killed take a moment to leave, so a busy directory is tried for a second.
   */
  async remove(): Promise<void> {
    await Promise.all(this.dirs.map((dir) => removeWhenEmpty(dir)));
  }
}

async function removeWhenEmpty(dir: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await rmdir(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EBUSY' || attempt >= BUSY_ATTEMPTS) return;
      await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS));
    }
  }
}

const BUSY_ATTEMPTS = 20;
const BUSY_RETRY_MS = 50;

/** `key N` out of a flat-keyed cgroup file (`memory.events`, `pids.events`, `memory.oom_control`). */
async function readCounter(file: string, key: string): Promise<number> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const line = text.split('\n').find((l) => l.startsWith(`${key} `));
  return line ? Number(line.slice(key.length + 1)) || 0 : 0;
}

/** A single-number cgroup file (`pids.current`); 0 when it cannot be read. */
async function readNumber(file: string): Promise<number> {
  return Number((await readFile(file, 'utf8').catch(() => '')).trim()) || 0;
}
