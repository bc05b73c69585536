import { describe, expect, it } from 'vitest';
import { settleWithin } from './settle-within.js';

describe('settleWithin', () => {
  it("passes on the promise's outcome when it settles in time", async () => {
    await expect(settleWithin(1_000, 'a value', Promise.resolve(7))).resolves.toBe(7);
    await expect(settleWithin(1_000, 'a failure', Promise.reject(new Error('refused')))).rejects.toThrow(
      'refused',
    );
  });

  it('fails naming what it waited for when no outcome comes in time', async () => {
    await expect(settleWithin(20, 'the moon', new Promise(() => undefined))).rejects.toThrow(
      'the moon: no answer within 20 ms',
    );
  });
});
