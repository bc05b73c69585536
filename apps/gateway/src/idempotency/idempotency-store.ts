import { randomUUID } from 'node:crypto';
import { AppError } from '@agentry/contracts';
import type { createRedis } from '@agentry/platform';

type Redis = ReturnType<typeof createRedis>;

/** What a stored key holds: the request it was first used for, and its response once there is one. */
interface Entry {
  fingerprint: string;
  /** Set while the first request runs; only that request may release its own claim. */
  claim?: string;
  response?: { statusCode: number; body: unknown };
}

export type BeginResult =
  { state: 'started'; claim: string } | { state: 'replay'; statusCode: number; body: unknown };

export interface IdempotencyStoreOptions {
  /** How long a completed response is replayed. */
  ttlMs: number;
  /** How long an in-flight claim blocks duplicates if its request never finishes (crashed replica). */
  claimMs: number;
}

// Delete only when the entry is still this request's own claim (a later request may have taken over).
const RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

/**
 * Idempotency keys in Redis: `SET NX` makes claiming a key atomic across gateway replicas, so a
 * duplicate never runs twice; it is told the first is still in progress instead.
 */
export class IdempotencyStore {
  constructor(
    private readonly redis: Redis,
    private readonly options: IdempotencyStoreOptions,
  ) {}

  async begin(key: string, fingerprint: string): Promise<BeginResult> {
    const claim = randomUUID();
    const pending = JSON.stringify({ fingerprint, claim } satisfies Entry);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      if ((await this.redis.set(key, pending, 'PX', this.options.claimMs, 'NX')) === 'OK')
        return { state: 'started', claim };
      const raw = await this.redis.get(key);
      if (raw === null) continue; // expired between the two calls: claim again
      const entry = JSON.parse(raw) as Entry;
      if (entry.fingerprint !== fingerprint) {
        throw new AppError(
          'IDEMPOTENCY_CONFLICT',
          'Idempotency-Key was already used with a different request; use a new key',
        );
      }
      if (!entry.response) {
        throw new AppError(
          'IDEMPOTENCY_CONFLICT',
          'A request with this Idempotency-Key is still in progress; retry later',
          {
            retryable: true,
          },
        );
      }
      return { state: 'replay', statusCode: entry.response.statusCode, body: entry.response.body };
    }
    throw new AppError('UNAVAILABLE', 'Could not claim the Idempotency-Key; retry', { retryable: true });
  }

  async complete(key: string, fingerprint: string, statusCode: number, body: unknown): Promise<void> {
    const entry: Entry = { fingerprint, response: { statusCode, body: body ?? null } };
    await this.redis.set(key, JSON.stringify(entry), 'PX', this.options.ttlMs);
  }

  /** A failed request frees its key, so the client can fix the request and retry with the same key. */
  async release(key: string, fingerprint: string, claim: string): Promise<void> {
    await this.redis.eval(RELEASE_SCRIPT, 1, key, JSON.stringify({ fingerprint, claim } satisfies Entry));
  }
}
