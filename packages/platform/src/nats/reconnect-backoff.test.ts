import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock/manual-clock.js';
import { reconnectBackoff } from './reconnect-backoff.js';

describe('reconnect backoff', () => {
  it('waits longer as an outage goes on, never past the cap, and starts short again after a pause', () => {
    const clock = new ManualClock(0);
    const delay = reconnectBackoff({ initialMs: 200, maxMs: 2_000 }, clock);
    const waits: number[] = [];
    for (let i = 0; i < 12; i++) {
      const wait = delay();
      waits.push(wait);
      clock.advance(wait);
    }
    expect(waits[0]).toBeLessThanOrEqual(240);
    expect(Math.max(...waits)).toBeLessThanOrEqual(2_400);
    expect(waits.at(-1)).toBeGreaterThanOrEqual(1_600);
    clock.advance(60_000);
    expect(delay()).toBeLessThanOrEqual(240);
  });
});
