import { Global, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { CLOCK, createRedis, LOGGER, redisKeyPrefix, type Clock, type Logger } from '@agentry/platform';
import type { GatewayEnv } from '../config/env.js';
import { RateLimitGuard } from './rate-limit.guard.js';
import { RequestRateLimiter } from './request-rate-limiter.js';
import { SseSlots } from './sse-slots.js';

type Redis = ReturnType<typeof createRedis>;
const RATE_LIMIT_REDIS = Symbol('RATE_LIMIT_REDIS');

class RedisCloser implements OnApplicationShutdown {
  constructor(
    private readonly redis: Redis,
    private readonly slots: SseSlots,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    this.slots.close();
    await this.redis.quit().catch(() => undefined);
  }
}

/** Request rate limits and the cap on open event streams, both counted in Redis across replicas. */
@Global()
@Module({})
export class RateLimitModule {
  static forRoot(config: GatewayEnv): DynamicModule {
    const prefix = `${redisKeyPrefix(config.AGENTRY_ENV)}gateway:`;
    return {
      module: RateLimitModule,
      providers: [
        // Its own connection, failing fast when Redis is away: a request never waits on a queued count.
        {
          provide: RATE_LIMIT_REDIS,
          useFactory: () => createRedis(config.REDIS_URL, { keyPrefix: prefix, offlineQueue: false }),
        },
        {
          provide: RequestRateLimiter,
          inject: [RATE_LIMIT_REDIS, LOGGER],
          useFactory: (redis: Redis, logger: Logger) =>
            new RequestRateLimiter(
              redis,
              'rate:',
              {
                windowSeconds: config.AGENTRY_RATE_LIMIT_WINDOW_SECONDS,
                perKind: {
                  api_key: config.AGENTRY_RATE_LIMIT_PER_API_KEY,
                  user: config.AGENTRY_RATE_LIMIT_PER_USER,
                  environment: config.AGENTRY_RATE_LIMIT_PER_ENVIRONMENT,
                  ip: config.AGENTRY_RATE_LIMIT_PER_IP,
                  deployment_webhook: config.AGENTRY_RATE_LIMIT_PER_DEPLOYMENT_WEBHOOK,
                },
              },
              logger,
            ),
        },
        {
          provide: SseSlots,
          inject: [RATE_LIMIT_REDIS, LOGGER, CLOCK],
          useFactory: (redis: Redis, logger: Logger, clock: Clock) =>
            new SseSlots(
              redis,
              {
                maxPerPrincipal: config.AGENTRY_SSE_MAX_CONNECTIONS_PER_PRINCIPAL,
                leaseMs: config.AGENTRY_SSE_SLOT_LEASE_MS,
              },
              logger,
              clock,
            ),
        },
        {
          provide: RedisCloser,
          inject: [RATE_LIMIT_REDIS, SseSlots],
          useFactory: (redis: Redis, slots: SseSlots) => new RedisCloser(redis, slots),
        },
        RateLimitGuard,
      ],
      exports: [RequestRateLimiter, SseSlots, RateLimitGuard],
    };
  }
}
