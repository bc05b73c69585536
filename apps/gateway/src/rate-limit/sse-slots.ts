import { randomUUID } from 'node:crypto';
import { AppError } from '@agentry/contracts';
import type { Clock, createRedis, Logger } from '@agentry/platform';
import type { Principal } from './principal-key.js';

type Redis = ReturnType<typeof createRedis>;

// Drops slots whose replica stopped renewing them (it died), then takes one if any is free.
const ACQUIRE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

export interface SseSlotLimits {
  /** Open event streams one principal may hold across every replica; 0 turns the limit off. */
  maxPerPrincipal: number;
  /** A slot not renewed for this long is free again (a replica that died without closing). */
  leaseMs: number;
}

/** Releases a taken slot; calling it twice is harmless. */
export type SlotRelease = () => void;

/**
 * Counts open SSE connections per principal in Redis (a sorted set of slot → lease expiry), so the
 * limit holds across replicas. A closed stream gives its slot back at once; this replica renews
 * its slots in one pipeline per lease third, so a crashed replica's slots expire on their own.
 */
export class SseSlots {
  private readonly held = new Map<string, string>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly redis: Redis,
    private readonly limits: SseSlotLimits,
    private readonly logger: Logger,
    private readonly clock: Clock,
  ) {
    this.timer = setInterval(() => void this.renew(), Math.max(100, Math.floor(limits.leaseMs / 3)));
    this.timer.unref();
  }

  /** Takes a slot for the principal or throws RATE_LIMITED naming the limit. */
  async acquire(principal: Principal): Promise<SlotRelease> {
    // Only API keys and users are capped: a worker's sessions token streams one session by design.
    if (this.limits.maxPerPrincipal <= 0 || (principal.kind !== 'api_key' && principal.kind !== 'user'))
      return () => undefined;
    const key = `sse:${principal.key}`;
    const slot = randomUUID();
    const now = this.clock.nowMs();
    let taken: number;
    try {
      taken = Number(
        await this.redis.eval(
          ACQUIRE,
          1,
          key,
          now,
          now + this.limits.leaseMs,
          slot,
          this.limits.maxPerPrincipal,
          this.limits.leaseMs * 2,
        ),
      );
    } catch (error) {
      // Without Redis the limit steps aside rather than cutting every stream.
      this.logger.warn({ err: (error as Error).message }, 'sse connection limit unavailable');
      return () => undefined;
    }
    if (taken !== 1) {
      throw new AppError(
        'RATE_LIMITED',
        `Too many open event streams: at most ${this.limits.maxPerPrincipal} per API key or user; close one and retry`,
        {
          retryable: true,
          details: { retry_after_seconds: 1 },
        },
      );
    }
    this.held.set(slot, key);
    return () => {
      if (!this.held.delete(slot)) return;
      this.redis
        .zrem(key, slot)
        .catch((error: Error) =>
          this.logger.warn({ err: error.message }, 'sse slot not released; it expires with its lease'),
        );
    };
  }

  get size(): number {
    return this.held.size;
  }

  close(): void {
    clearInterval(this.timer);
  }

  private async renew(): Promise<void> {
    if (this.held.size === 0) return;
    const expiresAt = this.clock.nowMs() + this.limits.leaseMs;
    const pipeline = this.redis.pipeline();
    for (const [slot, key] of this.held)
      pipeline.zadd(key, 'XX', expiresAt, slot).pexpire(key, this.limits.leaseMs * 2);
    await pipeline
      .exec()
      .catch((error: Error) => this.logger.warn({ err: error.message }, 'sse slots not renewed'));
  }
}
