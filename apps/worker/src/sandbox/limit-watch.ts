import type { SessionCgroup } from './cgroups/session-cgroup.js';

/** How often a running call's cgroup counters are read. */
const POLL_MS = 250;
/**
 * Forks refused again this long after the first refusal, with no quiet gap of PRESSURE_GAP_MS between:
 * a runaway (fork bomb: its shells retry in bursts), not one burst of a busy build.
 */
const RUNAWAY_AFTER_MS = 1_000;
const PRESSURE_GAP_MS = 2_500;

/**
 * Watches one call against its session's cgroup: when the process cap keeps refusing forks the call is
 * stopped (`stop` aborts it) rather than left to its timeout, and afterwards `notes` says which limit
 * ended what, for the tool result.
 */
export class LimitWatch {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private before = { oomKills: 0, forksRefused: 0 };
  private runaway = false;

  private constructor(
    private readonly cgroup: SessionCgroup,
    private readonly caps: { memoryBytes: number; processes: number },
  ) {}

  static async start(
    cgroup: SessionCgroup,
    caps: { memoryBytes: number; processes: number },
  ): Promise<LimitWatch> {
    const watch = new LimitWatch(cgroup, caps);
    watch.before = await cgroup.counters();
    let last = watch.before.forksRefused;
    let firstRefusal = 0;
    let lastRefusal = 0;
    watch.timer = setInterval(() => {
      void cgroup.counters().then(({ forksRefused }) => {
        const now = performance.now();
        if (forksRefused > last) {
          if (now - lastRefusal > PRESSURE_GAP_MS) firstRefusal = now;
          lastRefusal = now;
        }
        last = forksRefused;
        if (!watch.runaway && firstRefusal > 0 && lastRefusal - firstRefusal >= RUNAWAY_AFTER_MS) {
          watch.runaway = true;
          watch.controller.abort(new Error('process limit'));
        }
      });
    }, POLL_MS);
    return watch;
  }

  /** Aborts when the call ran away past the process cap. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get stoppedByProcessCap(): boolean {
    return this.runaway;
  }

  /** Lines for the tool result naming each limit that stopped or killed something during the call. */
  async notes(): Promise<string[]> {
    clearInterval(this.timer);
    const after = await this.cgroup.counters();
    const notes: string[] = [];
    if (this.runaway)
      notes.push(
        `[stopped: the sandbox reached its process limit (${this.caps.processes} processes) and kept forking; every process of the call was killed]`,
      );
    else if (after.forksRefused > this.before.forksRefused)
      notes.push(
        `[the sandbox reached its process limit (${this.caps.processes} processes): some forks failed]`,
      );
    if (after.oomKills > this.before.oomKills)
      notes.push(
        `[killed: the sandbox's memory limit (${Math.round(this.caps.memoryBytes / 1024 ** 2)} MiB) was reached and the kernel killed a process]`,
      );
    return notes;
  }
}
