import { AppError } from '@agentry/contracts';
import type { ModelStreamEvent } from './model-port.js';

export interface ModelRetryOptions {
  /** Total attempts including the first (default 4). */
  maxAttempts?: number;
  /** Delay before the first retry, doubled each time (default 500 ms). */
  baseDelayMs?: number;
  /** Upper bound of the backoff delay (default 30 s). */
  maxDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the error is thrown instead (default 60 s). */
  maxRetryAfterMs?: number;
  /** Called before each wait, e.g. to emit a retry status event. */
  onRetry?: (info: { attempt: number; delayMs: number; error: AppError }) => void;
  /** Injected for deterministic tests. */
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Exponential backoff with jitter around one streamed model call. A failed attempt is retried only when its
 * error is retryable and it has not yielded anything yet (a partial stream cannot be taken back).
 */
export class ModelRetryPolicy {
  private readonly maxAttempts: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly random: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(private readonly options: ModelRetryOptions = {}) {
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 4);
    this.baseDelayMs = options.baseDelayMs ?? 500;
    this.maxDelayMs = options.maxDelayMs ?? 30_000;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
    this.random = options.random ?? Math.random;
    this.sleep = options.sleep ?? abortableSleep;
  }

  /** Delay before retry number `attempt` (1-based), or undefined when the error must not be retried. */
  delayFor(attempt: number, error: AppError): number | undefined {
    if (!error.retryable || attempt >= this.maxAttempts) return undefined;
    const retryAfterMs = error.details?.retryAfterMs;
    if (typeof retryAfterMs === 'number')
      return retryAfterMs <= this.maxRetryAfterMs ? retryAfterMs : undefined;
    const ceiling = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (attempt - 1));
    // "Equal jitter": at least half the backoff, so retries spread out but never collapse to zero.
    return Math.round(ceiling / 2 + (this.random() * ceiling) / 2);
  }

  async *run(
    attemptFn: () => AsyncIterable<ModelStreamEvent>,
    toAppError: (error: unknown) => AppError,
    signal?: AbortSignal,
  ): AsyncGenerator<ModelStreamEvent> {
    for (let attempt = 1; ; attempt++) {
      let yielded = false;
      try {
        for await (const event of attemptFn()) {
          yielded = true;
          yield event;
          if (signal?.aborted) throw abortedError(signal.reason);
        }
        // The SDKs end an aborted body stream quietly; an aborted call must not look like a finished one.
        if (signal?.aborted) throw abortedError(signal.reason);
        return;
      } catch (raw) {
        const error = signal?.aborted ? abortedError(raw) : toAppError(raw);
        const delayMs = yielded ? undefined : this.delayFor(attempt, error);
        if (delayMs === undefined) throw error;
        this.options.onRetry?.({ attempt, delayMs, error });
        try {
          await this.sleep(delayMs, signal);
        } catch (sleepError) {
          throw abortedError(sleepError);
        }
      }
    }
  }
}

function abortedError(cause?: unknown): AppError {
  return new AppError('ABORTED', 'The model request was aborted', { cause });
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  // A signal's reason is the error the abort carries (an `AbortError` unless the caller gave one).
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
