import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { PlatformModule } from '@agentry/platform';
import { GATEWAY_CONFIG, type GatewayEnv } from './config/env.js';
import { AuthModule } from './auth/auth.module.js';
import { ActorGuard } from './auth/actor.guard.js';
import { HttpErrorFilter } from './http/http-error.filter.js';
import { V1Module } from './v1/v1.module.js';
import { ApiModule } from './api/api.module.js';
import { AccessModule } from './api/access/access.module.js';
import { IdempotencyModule } from './idempotency/idempotency.module.js';
import { DocsModule } from './docs/docs.module.js';
import { WorkersModule } from './workers/workers.module.js';
import { RateLimitModule } from './rate-limit/rate-limit.module.js';
import { RateLimitGuard } from './rate-limit/rate-limit.guard.js';
import { PathTextGuard } from './http/path-text.guard.js';

@Module({})
export class AppModule {
  static forRoot(config: GatewayEnv): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [
        PlatformModule.forRoot({
          service: 'gateway',
          config,
          uses: {},
          routesTo: ['control', 'dataplane'],
        }),
        AuthModule.forRoot(config),
        RateLimitModule.forRoot(config),
        V1Module,
        ApiModule,
        AccessModule,
        IdempotencyModule,
        DocsModule,
        WorkersModule,
      ],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        // First: resolving who calls may look up a path id (a worker's environment), which must be storable text.
        { provide: APP_GUARD, useClass: PathTextGuard },
        { provide: APP_GUARD, useClass: ActorGuard },
        // After the actor guard: requests count against who they authenticated as.
        { provide: APP_GUARD, useExisting: RateLimitGuard },
        { provide: APP_FILTER, useClass: HttpErrorFilter },
      ],
      exports: [GATEWAY_CONFIG],
    };
  }
}
