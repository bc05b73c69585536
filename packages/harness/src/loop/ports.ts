import { AppError, newId } from '@agentry/contracts';

/** Time source; tests inject a fake one. */
export interface Clock {
  now(): Date;
  /** Resolves after `ms`, rejects with AppError ABORTED when the signal fires. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Structured logger: constant message + fields. */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** Generates event ids; must be unique per call. */
export type IdGenerator = () => string;

export function abortError(): AppError {
  return new AppError('ABORTED', 'The run was interrupted');
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export const systemClock: Clock = { now: () => new Date(), sleep: abortableSleep };

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** Session event ids (`sevt_…`) from the one id generator, stamped with the harness clock's time. */
export function createEventIdGenerator(clock: Clock = systemClock): IdGenerator {
  return () => newId('sevt_', clock.now().getTime());
}
