import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LimitCounters, SessionCgroup } from './cgroups/session-cgroup.js';
import { LimitWatch } from './limit-watch.js';

const caps = { memoryBytes: 64 * 1024 ** 2, processes: 64 };

/** A session cgroup whose counters follow a script of (from ms, counters) steps on the fake clock. */
function scriptedCgroup(steps: Array<[number, Partial<LimitCounters>]>): SessionCgroup {
  const started = performance.now();
  return {
    counters: () => {
      const elapsed = performance.now() - started;
      let current: LimitCounters = { oomKills: 0, forksRefused: 0, processes: 1 };
      for (const [from, counters] of steps) if (elapsed >= from) current = { ...current, ...counters };
      return Promise.resolve(current);
    },
  } as unknown as SessionCgroup;
}

describe('LimitWatch', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("stops a fork bomb whose refusals come in bash's retry waves, within about a second", async () => {
    // The cgroup stays full; refusals arrive at bash's backoff (waves 0.6 s apart, then 2.75 s, then 4 s):
    // spaced like that, a rule on the gaps between refusals alone never fired.
    const watch = await LimitWatch.start(
      scriptedCgroup([
        [0, { processes: 62 }],
        [200, { forksRefused: 50 }],
        [700, { forksRefused: 110 }],
        [3_450, { forksRefused: 170 }],
        [7_450, { forksRefused: 230 }],
      ]),
      caps,
    );
    await vi.advanceTimersByTimeAsync(1_300);
    expect(watch.signal.aborted).toBe(true);
    expect(watch.stoppedByProcessCap).toBe(true);
    expect(await watch.notes()).toEqual([
      '[stopped: the sandbox reached its process limit (64 processes) and kept forking; every process of the call was killed]',
    ]);
  });

  it('lets a build that touched the cap once and drained go on, and says some forks failed', async () => {
    const watch = await LimitWatch.start(
      scriptedCgroup([
        [0, { processes: 30 }],
        [200, { processes: 64, forksRefused: 3 }],
        [700, { processes: 64, forksRefused: 5 }],
        [900, { processes: 20 }],
      ]),
      caps,
    );
    await vi.advanceTimersByTimeAsync(5_000);
    expect(watch.signal.aborted).toBe(false);
    expect(await watch.notes()).toEqual([
      '[the sandbox reached its process limit (64 processes): some forks failed]',
    ]);
  });

  it('names an OOM kill during the call', async () => {
    const watch = await LimitWatch.start(scriptedCgroup([[300, { oomKills: 1 }]]), caps);
    await vi.advanceTimersByTimeAsync(500);
    expect(await watch.notes()).toEqual([
      "[killed: the sandbox's memory limit (64 MiB) was reached and the kernel killed a process]",
    ]);
  });
});
