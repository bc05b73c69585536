import { Inject, Module, type OnModuleDestroy } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { createRedis, redisKeyPrefix } from '@agentry/platform';
import { GATEWAY_CONFIG, type GatewayEnv } from '../config/env.js';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import { IdempotencyStore } from './idempotency-store.js';

const DAY_MS = 24 * 3600 * 1000;
/** Longer than any POST takes (the gateway's RPC timeout is far shorter). */
const CLAIM_MS = 5 * 60 * 1000;
const IDEMPOTENCY_REDIS = Symbol('IDEMPOTENCY_REDIS');

/** Stores keys in Redis under the gateway's own prefix; see docs/idempotency.md. */
@Module({
  providers: [
    {
      provide: IDEMPOTENCY_REDIS,
      inject: [GATEWAY_CONFIG],
      useFactory: (config: GatewayEnv) =>
        createRedis(config.REDIS_URL, { keyPrefix: `${redisKeyPrefix(config.AGENTRY_ENV)}gateway:idem:` }),
    },
    {
      provide: IdempotencyStore,
      inject: [IDEMPOTENCY_REDIS],
      useFactory: (redis: ReturnType<typeof createRedis>) =>
        new IdempotencyStore(redis, { ttlMs: DAY_MS, claimMs: CLAIM_MS }),
    },
    { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
  ],
})
export class IdempotencyModule implements OnModuleDestroy {
  constructor(@Inject(IDEMPOTENCY_REDIS) private readonly redis: ReturnType<typeof createRedis>) {}

  async onModuleDestroy(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}
