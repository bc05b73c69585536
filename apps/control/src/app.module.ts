import { Module, type DynamicModule } from '@nestjs/common';
import { PlatformModule } from '@agentry/platform';
import type { ControlEnv } from './config/env.js';
import { AgentsModule } from './agents/agents.module.js';
import { AuthModule } from './auth/auth.module.js';
import { EnvironmentsModule } from './environments/environments.module.js';
import { SessionsModule } from './sessions/sessions.module.js';
import { CONTROL_CONFIG } from './config/control-config.token.js';

@Module({})
export class AppModule {
  static forRoot(config: ControlEnv): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot({ service: 'control', config, uses: { database: true } }),
        AuthModule,
        AgentsModule,
        EnvironmentsModule,
        SessionsModule,
      ],
      providers: [{ provide: CONTROL_CONFIG, useValue: config }],
      exports: [CONTROL_CONFIG],
      global: true,
    };
  }
}
