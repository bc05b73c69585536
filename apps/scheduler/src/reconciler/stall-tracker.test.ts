import { describe, expect, it } from 'vitest';
import { StallTracker } from './stall-tracker.js';

const stalled = (leaseToken: number, inputSeq = 1, id = 'sesn_1') => ({
  id,
  tenantId: 'ten_1',
  leaseToken: BigInt(leaseToken),
  inputSeq: BigInt(inputSeq),
});

describe('StallTracker', () => {
  it('kicks until the same input has used up its attempts, then abandons once', () => {
    const tracker = new StallTracker(3);
    expect(tracker.judge([stalled(4)])[0]).toMatchObject({ action: 'kick', attempts: 0 });
    expect(tracker.judge([stalled(6)])[0]).toMatchObject({ action: 'kick', attempts: 2 });
    expect(tracker.judge([stalled(7)])[0]).toMatchObject({ action: 'abandon', attempts: 3 });
    expect(tracker.judge([stalled(7)])[0]).toMatchObject({ action: 'kick', attempts: 0 });
  });

  it('never abandons a session that waits without being taken (a long queue, not a failing turn)', () => {
    const tracker = new StallTracker(2);
    for (let tick = 0; tick < 20; tick += 1) expect(tracker.judge([stalled(5)])[0]!.action).toBe('kick');
  });

  it('counts afresh for new input, and forgets sessions no longer stalled', () => {
    const tracker = new StallTracker(3);
    tracker.judge([stalled(1)]);
    expect(tracker.judge([stalled(3, 2)])[0]).toMatchObject({ action: 'kick', attempts: 0 });
    tracker.judge([]);
    expect(tracker.judge([stalled(9, 2)])[0]).toMatchObject({ action: 'kick', attempts: 0 });
  });
});
