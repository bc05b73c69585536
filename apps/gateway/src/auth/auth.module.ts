import { Module, type DynamicModule } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import type { GatewayEnv } from '../config/env.js';
import { JwtStrategy } from './jwt.strategy.js';
import { LoginController } from './login.controller.js';
import { PasswordController } from './password.controller.js';
import { WorkerCredentialResolver } from '../workers/worker-credential.resolver.js';

@Module({})
export class AuthModule {
  static forRoot(config: GatewayEnv): DynamicModule {
    return {
      module: AuthModule,
      imports: [
        PassportModule,
        JwtModule.register({
          secret: config.AGENTRY_JWT_SECRET,
          signOptions: { expiresIn: config.AGENTRY_JWT_TTL_SECONDS, algorithm: 'HS256' },
        }),
      ],
      controllers: [LoginController, PasswordController],
      providers: [JwtStrategy, WorkerCredentialResolver],
      exports: [JwtModule, WorkerCredentialResolver],
    };
  }
}
