import { Module, type DynamicModule } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import type { GatewayEnv } from '../config/env.js';
import { AccessChangesListener } from './access-changes.listener.js';
import { ActorCache } from './actor-cache.js';
import { ActorResolver } from './actor-resolver.service.js';
import { ForgetCachedActorsInterceptor } from './changes-access.decorator.js';
import { JwtStrategy } from './jwt.strategy.js';
import { LoginController } from './login.controller.js';
import { PasswordController } from './password.controller.js';
import { WorkerCredentialResolver } from '../workers/worker-credential.resolver.js';

@Module({})
export class AuthModule {
  static forRoot(config: GatewayEnv): DynamicModule {
    return {
      module: AuthModule,
      // Global: handlers anywhere mark access changes with @ChangesAccess(), which needs the cache.
      global: true,
      imports: [
        PassportModule,
        JwtModule.register({
          secret: config.AGENTRY_JWT_SECRET,
          signOptions: { expiresIn: config.AGENTRY_JWT_TTL_SECONDS, algorithm: 'HS256' },
        }),
      ],
      controllers: [LoginController, PasswordController],
      providers: [
        JwtStrategy,
        WorkerCredentialResolver,
        { provide: ActorCache, useFactory: () => new ActorCache(config.AGENTRY_ACTOR_CACHE_TTL_MS, config.AGENTRY_ACTOR_CACHE_MAX_ENTRIES) },
        ActorResolver,
        AccessChangesListener,
        ForgetCachedActorsInterceptor,
      ],
      exports: [JwtModule, WorkerCredentialResolver, ActorCache, ActorResolver, ForgetCachedActorsInterceptor],
    };
  }
}
