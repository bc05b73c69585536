import { Module, type DynamicModule } from '@nestjs/common';
import { PlatformModule } from '@agentry/platform';
import { SCHEDULER_CONFIG, type SchedulerEnv } from './config/env.js';
import { ReconcilerModule } from './reconciler/reconciler.module.js';
import { DeploymentsModule } from './deployments/deployments.module.js';
import { MultiagentModule } from './multiagent/multiagent.module.js';
import { ReplaysModule } from './replays/replays.module.js';
import { RetentionModule } from './retention/retention.module.js';
import { MemoryModule } from './memory/memory.module.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';

@Module({})
export class AppModule {
  static forRoot(config: SchedulerEnv): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [
        PlatformModule.forRoot({ service: 'scheduler', config, uses: { database: true, queue: true } }),
        ReconcilerModule,
        DeploymentsModule,
        MultiagentModule,
        ReplaysModule,
        RetentionModule,
        MemoryModule,
        WebhooksModule,
      ],
      providers: [{ provide: SCHEDULER_CONFIG, useValue: config }],
      exports: [SCHEDULER_CONFIG],
    };
  }
}
