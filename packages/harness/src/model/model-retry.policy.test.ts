import { describe, expect, it } from 'vitest';
import { AppError } from '@agentry/contracts';
import { abortableSleep } from '../loop/ports.js';
import type { ModelStreamEvent } from './model-port.js';
import { ModelRetryPolicy } from './model-retry.policy.js';

/** The events as an async stream: each arrives on a later tick, as a streamed response's does. */
async function* streamOf<T>(...events: T[]): AsyncGenerator<T> {
  for (const event of events) yield await Promise.resolve(event);
}

const limited = (retryAfterMs?: number) =>
  new AppError('MODEL_RATE_LIMITED', 'slow down', {
    retryable: true,
    details: retryAfterMs === undefined ? {} : { retryAfterMs },
  });

const done: ModelStreamEvent = {
  type: 'done',
  message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
  stopReason: 'end_turn',
  usage: { inputTokens: 1, outputTokens: 1 },
};

/** An attempt function that fails with the given errors first, optionally after yielding a delta. */
function flaky(errors: AppError[], yieldFirst = false) {
  let calls = 0;
  const fn = async function* (): AsyncGenerator<ModelStreamEvent> {
    calls++;
    const error = errors.shift();
    if (error && yieldFirst) yield* streamOf<ModelStreamEvent>({ type: 'text_delta', text: 'partial' });
    if (error) throw error;
    yield* streamOf(done);
  };
  return { fn, calls: () => calls };
}

async function drain(stream: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const out: ModelStreamEvent[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

const asAppError = (e: unknown) => e as AppError;

describe('ModelRetryPolicy', () => {
  it('backs off exponentially with jitter and caps the delay', () => {
    const low = new ModelRetryPolicy({ baseDelayMs: 100, maxDelayMs: 300, random: () => 0 });
    const high = new ModelRetryPolicy({
      baseDelayMs: 100,
      maxDelayMs: 300,
      random: () => 1,
      maxAttempts: 10,
    });
    expect([1, 2, 3].map((n) => low.delayFor(n, limited()))).toEqual([50, 100, 150]);
    expect([1, 2, 3, 4].map((n) => high.delayFor(n, limited()))).toEqual([100, 200, 300, 300]);
  });

  it('waits exactly Retry-After, and refuses one longer than the cap', () => {
    const policy = new ModelRetryPolicy({ maxRetryAfterMs: 5_000 });
    expect(policy.delayFor(1, limited(1_200))).toBe(1_200);
    expect(policy.delayFor(1, limited(60_000))).toBeUndefined();
  });

  it('never retries a non-retryable error or past the last attempt', () => {
    const policy = new ModelRetryPolicy({ maxAttempts: 2 });
    expect(policy.delayFor(1, new AppError('CONTEXT_OVERFLOW', 'too long'))).toBeUndefined();
    expect(policy.delayFor(2, limited())).toBeUndefined();
  });

  it('retries until success, reporting each wait', async () => {
    const waits: number[] = [];
    const retries: number[] = [];
    const policy = new ModelRetryPolicy({
      baseDelayMs: 10,
      random: () => 1,
      sleep: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
      onRetry: ({ attempt }) => retries.push(attempt),
    });
    const attempt = flaky([limited(), limited(700)]);
    const events = await drain(policy.run(attempt.fn, asAppError));
    expect(events).toEqual([done]);
    expect(attempt.calls()).toBe(3);
    expect(waits).toEqual([10, 700]);
    expect(retries).toEqual([1, 2]);
  });

  it('does not retry once part of the response was streamed', async () => {
    const policy = new ModelRetryPolicy({ sleep: () => Promise.resolve() });
    const attempt = flaky([limited()], true);
    await expect(drain(policy.run(attempt.fn, asAppError))).rejects.toMatchObject({
      code: 'MODEL_RATE_LIMITED',
    });
    expect(attempt.calls()).toBe(1);
  });

  it('turns an abort during the backoff into ABORTED without another attempt', async () => {
    const controller = new AbortController();
    // The backoff is a minute; abort once it has begun.
    const policy = new ModelRetryPolicy({
      baseDelayMs: 60_000,
      random: () => 1,
      sleep: (ms, signal) => {
        const slept = abortableSleep(ms, signal);
        controller.abort();
        return slept;
      },
    });
    const attempt = flaky([limited(), limited()]);
    // The minute-long backoff can end within the test only through the abort.
    await expect(drain(policy.run(attempt.fn, asAppError, controller.signal))).rejects.toMatchObject({
      code: 'ABORTED',
    });
    expect(attempt.calls()).toBe(1);
  });
});
