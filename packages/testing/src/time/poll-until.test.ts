import { describe, expect, it } from 'vitest';
import { pollFor, pollUntil } from './poll-until.js';

describe('pollUntil', () => {
  it('probes until the probe returns a value, and returns it', async () => {
    let calls = 0;
    const found = await pollUntil(
      'the third probe',
      () => (++calls >= 3 ? `probe ${calls}` : undefined),
      1_000,
      {
        everyMs: 1,
      },
    );
    expect(found).toBe('probe 3');
    expect(calls).toBe(3);
  });

  it('treats false and null as not yet, and 0 as a value', async () => {
    const answers = [false, null, 0];
    expect(await pollUntil('a number', () => answers.shift(), 1_000, { everyMs: 1 })).toBe(0);
  });

  it('fails naming what it waited for once the time is up', async () => {
    await expect(pollUntil('the moon', () => false, 30, { everyMs: 5 })).rejects.toThrow(
      'timed out after 30 ms waiting for the moon',
    );
  });

  it('fails at once when the probe throws, unless told to retry', async () => {
    let calls = 0;
    const failing = () => {
      calls += 1;
      if (calls < 3) throw new Error('not listening');
      return true;
    };
    await expect(pollUntil('a listener', failing, 1_000, { everyMs: 1 })).rejects.toThrow('not listening');
    expect(calls).toBe(1);
    expect(await pollUntil('a listener', failing, 1_000, { everyMs: 1, retryErrors: true })).toBe(true);
    expect(calls).toBe(3);
  });
});

describe('pollFor', () => {
  it('returns the first value accepted, and names the last one seen when none is', async () => {
    let n = 0;
    expect(
      await pollFor(
        'n to reach 2',
        () => ++n,
        (v) => v === 2,
        1_000,
        { everyMs: 1 },
      ),
    ).toBe(2);
    await expect(
      pollFor(
        'a big count',
        () => ({ count: 1n }),
        (v) => v.count > 5n,
        30,
        { everyMs: 5 },
      ),
    ).rejects.toThrow('a big count: still {"count":"1"} after 30 ms');
  });
});
