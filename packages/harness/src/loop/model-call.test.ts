import { describe, expect, it } from 'vitest';
import { AppError } from '@agentry/contracts';
import { retryDelayMs } from './model-call.js';

const policy = { retries: 3, backoffMs: 500, maxDelayMs: 3_000 };
const retryable = (details?: Record<string, unknown>) =>
  new AppError('MODEL_RATE_LIMITED', 'slow down', { retryable: true, ...(details ? { details } : {}) });

describe('retryDelayMs', () => {
  it('doubles the backoff per attempt, up to the longest wait', () => {
    expect([0, 1, 2].map((attempt) => retryDelayMs(retryable(), attempt, policy))).toEqual([
      500, 1_000, 2_000,
    ]);
    expect(retryDelayMs(retryable(), 2, { ...policy, backoffMs: 2_000 })).toBe(3_000);
  });

  it('waits exactly as long as the provider asks, when that is within the longest wait', () => {
    expect(retryDelayMs(retryable({ retryAfterMs: 1_200 }), 0, policy)).toBe(1_200);
    expect(retryDelayMs(retryable({ retryAfterMs: 0 }), 1, policy)).toBe(0);
  });

  it('gives up on a retry-after beyond the longest wait, a final error, and the last retry', () => {
    expect(retryDelayMs(retryable({ retryAfterMs: 10_000 }), 0, policy)).toBeUndefined();
    expect(retryDelayMs(new AppError('UNAUTHENTICATED', 'bad key'), 0, policy)).toBeUndefined();
    expect(retryDelayMs(retryable(), 3, policy)).toBeUndefined();
  });
});
