import { Module } from '@nestjs/common';
import { MultiagentHandler } from './multiagent.handler.js';
import { MultiagentRunExecutor } from './multiagent-run.executor.js';
import { MultiagentRunProcessor } from './multiagent-run.processor.js';
import { MultiagentRunsRepository } from './multiagent-runs.repository.js';
import { MultiagentRunsService } from './multiagent-runs.service.js';
import { RunChanges } from './run-changes.js';

@Module({
  controllers: [MultiagentHandler],
  providers: [
    MultiagentRunsService,
    MultiagentRunExecutor,
    MultiagentRunProcessor,
    MultiagentRunsRepository,
    RunChanges,
  ],
})
export class MultiagentModule {}
