import { Module } from '@nestjs/common';
import { SessionStreamService } from '../streaming/session-stream.service.js';
import { ApiAgentsController } from './api-agents.controller.js';
import { ApiDeploymentsController } from './api-deployments.controller.js';
import { ApiMultiagentController } from './api-multiagent.controller.js';
import { ApiEnvironmentsController } from './api-environments.controller.js';
import { ApiMemoryStoresController } from './api-memory-stores.controller.js';
import { ApiSessionEventsController } from './api-session-events.controller.js';
import { ApiSessionsController } from './api-sessions.controller.js';
import { ApiVaultsController } from './api-vaults.controller.js';
import { WorkQueueService } from '../workers/work-queue.service.js';
import { ApiHandsController } from './api-hands.controller.js';
import { ApiWorkController } from './api-work.controller.js';
import { ApiWorkerSessionsController } from './api-worker-sessions.controller.js';

/** The AgentScope-compatible `/api` surface: a translation layer over the same handlers as `/v1`. */
@Module({
  controllers: [
    ApiAgentsController,
    ApiEnvironmentsController,
    ApiSessionsController,
    ApiSessionEventsController,
    ApiVaultsController,
    ApiMemoryStoresController,
    ApiDeploymentsController,
    ApiMultiagentController,
    ApiWorkController,
    ApiWorkerSessionsController,
    ApiHandsController,
  ],
  providers: [SessionStreamService, WorkQueueService],
})
export class ApiModule {}
