import { describe, expect, it, vi } from 'vitest';
import { ChaosSchedule } from './chaos-schedule.js';

const draws = (schedule: ChaosSchedule) =>
  Array.from({ length: 20 }, (_, i) => [
    schedule.below(3_000),
    schedule.pick(['a', 'b', 'c']),
    schedule.chance(0.3),
    i,
  ]);

describe('a chaos schedule', () => {
  it('replays the same choices from the seed it printed', () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const first = new ChaosSchedule('kills', {});
    const printed = String(log.mock.calls[0]?.[0]);
    expect(printed).toContain(`CHAOS_SEED=${first.seed}`);
    const firstDraws = draws(first);
    const replay = new ChaosSchedule('kills', { CHAOS_SEED: String(first.seed) });
    expect(replay.seed).toBe(first.seed);
    expect(draws(replay)).toEqual(firstDraws);
    expect(draws(new ChaosSchedule('kills', { CHAOS_SEED: String(first.seed + 1) }))).not.toEqual(firstDraws);
    log.mockRestore();
  });

  it('keeps every draw in range', () => {
    const schedule = new ChaosSchedule('range', { CHAOS_SEED: '7' });
    for (let i = 0; i < 1_000; i += 1) {
      const n = schedule.below(5);
      expect(n).toBeGreaterThanOrEqual(0);
      expect(n).toBeLessThan(5);
    }
    expect(schedule.below(1)).toBe(0);
  });
});
