import { Module, type DynamicModule } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { CLOCK, createRedis, LOGGER, redisKeyPrefix, type Clock, type Logger } from '@agentry/platform';
import type { GatewayEnv } from '../config/env.js';
import { LoginThrottle } from './login-throttle.js';
import { AccessChangesListener } from './access-changes.listener.js';
import { ActorCache } from './actor-cache.js';
import { ActorResolver } from './actor-resolver.service.js';
import { ForgetCachedActorsInterceptor } from './changes-access.decorator.js';
import { UserTokens } from './user-tokens.js';
import { LoginController } from './login.controller.js';
import { PasswordController } from './password.controller.js';
import { LogoutController } from './logout.controller.js';
import { JwtKeys } from './jwt-keys.js';
import { TokenRevocations } from './token-revocations.js';
import { WorkerCredentialResolver } from '../workers/worker-credential.resolver.js';

@Module({})
export class AuthModule {
  static forRoot(config: GatewayEnv): DynamicModule {
    return {
      module: AuthModule,
      // Global: handlers anywhere mark access changes with @ChangesAccess(), which needs the cache.
      global: true,
      imports: [
        JwtModule.register({
          secret: config.AGENTRY_JWT_SECRET,
          signOptions: { expiresIn: config.AGENTRY_JWT_TTL_SECONDS, algorithm: 'HS256' },
        }),
      ],
      controllers: [LoginController, LogoutController, PasswordController],
      providers: [
        { provide: JwtKeys, inject: [CLOCK], useFactory: (clock: Clock) => new JwtKeys(config, clock) },
        // Fails fast while Redis is away, so verifying a token never waits on it (see ActorResolver).
        {
          provide: TokenRevocations,
          inject: [CLOCK],
          useFactory: (clock: Clock) =>
            new TokenRevocations(
              createRedis(config.REDIS_URL, {
                keyPrefix: `${redisKeyPrefix(config.AGENTRY_ENV)}gateway:tokens:`,
                offlineQueue: false,
              }),
              config.AGENTRY_JWT_TTL_SECONDS,
              clock,
            ),
        },
        UserTokens,
        WorkerCredentialResolver,
        {
          provide: LoginThrottle,
          inject: [LOGGER],
          useFactory: (logger: Logger) =>
            new LoginThrottle(
              createRedis(config.REDIS_URL, {
                keyPrefix: `${redisKeyPrefix(config.AGENTRY_ENV)}gateway:login:`,
              }),
              {
                maxFailures: config.AGENTRY_LOGIN_MAX_FAILURES,
                windowSeconds: config.AGENTRY_LOGIN_FAILURE_WINDOW_SECONDS,
                lockoutSeconds: config.AGENTRY_LOGIN_LOCKOUT_SECONDS,
              },
              logger,
            ),
        },
        {
          provide: ActorCache,
          inject: [CLOCK],
          useFactory: (clock: Clock) =>
            new ActorCache(config.AGENTRY_ACTOR_CACHE_TTL_MS, config.AGENTRY_ACTOR_CACHE_MAX_ENTRIES, clock),
        },
        ActorResolver,
        AccessChangesListener,
        ForgetCachedActorsInterceptor,
      ],
      exports: [
        JwtModule,
        JwtKeys,
        UserTokens,
        TokenRevocations,
        WorkerCredentialResolver,
        LoginThrottle,
        ActorCache,
        ActorResolver,
        ForgetCachedActorsInterceptor,
      ],
    };
  }
}
