import { AppError } from '@agentry/contracts';
import type { createRedis, Logger } from '@agentry/platform';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { Principal, PrincipalKind } from './principal-key.js';

type Redis = ReturnType<typeof createRedis>;

export interface RequestRateLimits {
  /** Requests per window for each kind of principal; 0 turns that limit off. */
  perKind: Record<PrincipalKind, number>;
  windowSeconds: number;
}

/**
 * Fixed-window request counters in Redis, shared by every gateway replica: one atomic increment
 * (one round trip) per request. Once a principal is over its limit, this replica refuses it from
 * memory until the window ends, without asking Redis again. If Redis is unreachable, each replica
 * counts on its own rather than refusing everyone.
 */
export class RequestRateLimiter {
  private readonly limiters = new Map<PrincipalKind, RateLimiterAbstract>();

  constructor(
    redis: Redis,
    keyPrefix: string,
    private readonly limits: RequestRateLimits,
    private readonly logger: Logger,
  ) {
    for (const [kind, points] of Object.entries(limits.perKind) as Array<[PrincipalKind, number]>) {
      if (points <= 0) continue;
      const options = { points, duration: limits.windowSeconds, keyPrefix: `${keyPrefix}${kind}` };
      this.limiters.set(
        kind,
        new RateLimiterRedis({
          ...options,
          storeClient: redis,
          inMemoryBlockOnConsumed: points + 1,
          inMemoryBlockDuration: limits.windowSeconds,
          rejectIfRedisNotReady: true,
          insuranceLimiter: new RateLimiterMemory(options),
        }),
      );
    }
  }

  /** Counts one request; throws RATE_LIMITED (with the seconds to wait) when the principal is over its limit. */
  async consume(principal: Principal): Promise<void> {
    const limiter = this.limiters.get(principal.kind);
    if (!limiter) return;
    try {
      await limiter.consume(principal.key);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) {
        this.logger.warn({ err: (rejection as Error).message }, 'rate limiter unavailable');
        return;
      }
      const seconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw new AppError(
        'RATE_LIMITED',
        `Rate limit of ${limiter.points} requests per ${this.limits.windowSeconds} s exceeded for this ${describe(principal.kind)}; retry in ${seconds} s`,
        {
          retryable: true,
          details: { retry_after_seconds: seconds },
        },
      );
    }
  }
}

function describe(kind: PrincipalKind): string {
  return {
    api_key: 'API key',
    user: 'user',
    environment: 'environment key',
    ip: 'client address',
    deployment_webhook: 'deployment webhook',
  }[kind];
}
