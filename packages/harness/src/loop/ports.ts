import { randomBytes } from 'node:crypto';
import { AppError } from '@agentry/contracts';

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

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** `sevt_` + 26-char ULID-like id: 48-bit time prefix (sortable) + 80 random bits. */
export function createEventIdGenerator(clock: Clock = systemClock): IdGenerator {
  // One crypto call per 256 ids: a call per id dominated the harness's own cost per turn.
  let pool = randomBytes(4096);
  let offset = 0;
  return () => {
    if (offset + 16 > pool.length) {
      pool = randomBytes(4096);
      offset = 0;
    }
    let time = clock.now().getTime();
    let head = '';
    for (let i = 0; i < 10; i++) {
      head = CROCKFORD[time % 32] + head;
      time = Math.floor(time / 32);
    }
    let tail = '';
    for (let i = 0; i < 16; i++) tail += CROCKFORD[pool[offset + i]! % 32];
    offset += 16;
    return `sevt_${head}${tail}`;
  };
}
