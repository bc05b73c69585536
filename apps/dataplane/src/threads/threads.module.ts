import { Global, Module } from '@nestjs/common';
import { AdvisorThreads } from './advisor-threads.js';
import { ThreadRoster } from './thread-roster.js';
import { ThreadStore } from './thread-store.repository.js';
import { ThreadTasks } from './thread-tasks.repository.js';
import { ThreadTurns } from './thread-turns.js';
import { ThreadsHandler } from './threads.handler.js';
import { ThreadsService } from './threads.service.js';
import { WorkflowRuns } from './workflow-runs.js';

@Global()
@Module({
  controllers: [ThreadsHandler],
  providers: [
    ThreadStore,
    ThreadRoster,
    ThreadTasks,
    ThreadTurns,
    ThreadsService,
    AdvisorThreads,
    WorkflowRuns,
  ],
  exports: [ThreadStore, ThreadTurns],
})
export class ThreadsModule {}
