import { describe, expect, it } from 'vitest';
import { ManualClock } from './manual-clock.js';

describe('ManualClock', () => {
  it('stays where it is put and moves only when advanced', () => {
    const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));
    expect(clock.now().toISOString()).toBe('2026-01-01T00:00:00.000Z');
    clock.advance(90_000);
    expect(clock.nowMs()).toBe(Date.parse('2026-01-01T00:01:30Z'));
    clock.set(new Date('2027-06-01T12:00:00Z'));
    expect(clock.now().toISOString()).toBe('2027-06-01T12:00:00.000Z');
  });
});
