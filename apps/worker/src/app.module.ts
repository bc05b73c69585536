import { Module, type DynamicModule } from '@nestjs/common';
import { PlatformModule } from '@agentry/platform';
import { WORKER_CONFIG, type WorkerEnv } from './config/env.js';
import { HandsModule } from './hands/hands.module.js';
import { HandsMcpModule } from './mcp/hands-mcp.module.js';
import { HandsStatusModule } from './status/hands-status.module.js';

@Module({})
export class AppModule {
  static forRoot(config: WorkerEnv): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [
        PlatformModule.forRoot({ service: 'worker', config, uses: { redis: true } }),
        HandsModule,
        HandsMcpModule,
        HandsStatusModule,
      ],
      providers: [{ provide: WORKER_CONFIG, useValue: config }],
      exports: [WORKER_CONFIG],
    };
  }
}
