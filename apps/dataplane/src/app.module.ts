import { Module, type DynamicModule } from '@nestjs/common';
import { PlatformModule, type Clock } from '@agentry/platform';
import { DATAPLANE_CONFIG, type DataplaneEnv } from './config/env.js';
import { AgentWorkspaceRowsModule } from './agent-workspace/agent-workspace-rows.module.js';
import { BudgetsModule } from './budgets/budgets.module.js';
import { DrainModule } from './drain/drain.module.js';
import { EventLogModule } from './event-log/event-log.module.js';
import { EventsModule } from './events/events.module.js';
import { SessionsModule } from './sessions/sessions.module.js';
import { OutcomesModule } from './outcomes/outcomes.module.js';
import { TurnsModule } from './turns/turns.module.js';
import { SessionRowsModule } from './session-rows/session-rows.module.js';
import { ThreadsModule } from './threads/threads.module.js';
import { WorkModule } from './work/work.module.js';
import { TelemetryModule } from './telemetry/telemetry.module.js';
import { UpkeepModule } from './upkeep/upkeep.module.js';
import { MemoryUpkeepModule } from './memory-upkeep/memory-upkeep.module.js';

@Module({})
export class AppModule {
  /** `clock` replaces the wall clock for tests that run the dataplane in-process and set the time. */
  static forRoot(config: DataplaneEnv, clock?: Clock): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [
        PlatformModule.forRoot({
          service: 'dataplane',
          config,
          uses: { database: true, redis: true, queue: true },
          clock,
        }),
        EventLogModule,
        SessionsModule,
        DrainModule,
        EventsModule,
        BudgetsModule,
        OutcomesModule,
        SessionRowsModule,
        AgentWorkspaceRowsModule,
        ThreadsModule,
        TurnsModule,
        WorkModule,
        TelemetryModule,
        UpkeepModule,
        MemoryUpkeepModule,
      ],
      providers: [{ provide: DATAPLANE_CONFIG, useValue: config }],
      exports: [DATAPLANE_CONFIG],
    };
  }
}
