import type { LimitCounters, SessionCgroup } from './cgroups/session-cgroup.js';

/** How often a running call's cgroup counters are read. */
const POLL_MS = 250;
/**
 * A runaway (a fork bomb) keeps the cgroup full and its forks refused: stopped once it has been full this
 * long since the first refusal and forks were refused again meanwhile. Bash retries a refused fork after
 * 1, 2, 4, 8 and 16 s, so the refusals come in waves with growing gaps; the count of processes, not the
 * spacing of the refusals, says whether the pressure lasted.
 */
const RUNAWAY_AFTER_MS = 1_000;
/** Full: this share of the cap or more (a slot freed by an exiting process is taken again by a retry). */
const FULL_SHARE = 0.9;

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
    const pressure = new ForkPressure(watch.before.forksRefused, Math.floor(caps.processes * FULL_SHARE));
    watch.timer = setInterval(() => {
      void cgroup.counters().then((counters) => {
        if (!watch.runaway && pressure.observe(counters, performance.now()) >= RUNAWAY_AFTER_MS) {
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

/**
 * How long the cgroup has stayed full with its forks refused more than once: 0 until then, and again as
 * soon as a reading finds it below the full mark.
 */
class ForkPressure {
  private since = 0;
  private refusalReadings = 0;

  constructor(
    private refused: number,
    private readonly fullAt: number,
  ) {}

  observe({ forksRefused, processes }: LimitCounters, now: number): number {
    const refusedNow = forksRefused > this.refused;
    this.refused = forksRefused;
    if (processes < this.fullAt) {
      this.since = 0;
      this.refusalReadings = 0;
      return 0;
    }
    if (refusedNow) {
      if (this.since === 0) this.since = now;
      this.refusalReadings += 1;
    }
    return this.since > 0 && this.refusalReadings >= 2 ? now - this.since : 0;
  }
}
