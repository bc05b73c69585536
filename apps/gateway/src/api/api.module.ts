import { Module } from '@nestjs/common';
import { StreamingModule } from '../streaming/streaming.module.js';
import { ApiAgentsController } from './api-agents.controller.js';
import { ApiAgentWorkspaceController } from './api-agent-workspace.controller.js';
import { ApiDeploymentsController } from './api-deployments.controller.js';
import { ApiMultiagentController } from './api-multiagent.controller.js';
import { ApiEnvironmentsController } from './api-environments.controller.js';
import { ApiMemoryStoresController } from './api-memory-stores.controller.js';
import { ApiMemoriesController } from './api-memories.controller.js';
import { ApiVaultCredentialsController } from './api-vault-credentials.controller.js';
import { ApiFilesController } from './api-files.controller.js';
import { ApiSessionEventsController } from './api-session-events.controller.js';
import { ApiSessionsController } from './api-sessions.controller.js';
import { ApiReplaysController } from './api-replays.controller.js';
import { ApiVaultsController } from './api-vaults.controller.js';
import { ApiWebhooksController } from './api-webhooks.controller.js';
import { WorkQueueService } from '../workers/work-queue.service.js';
import { ApiHandsController } from './api-hands.controller.js';
import { ApiWorkController } from './api-work.controller.js';
import { ApiWorkerSessionsController } from './api-worker-sessions.controller.js';

/** The AgentScope-compatible `/api` surface: a translation layer over the same handlers as `/v1`. */
@Module({
  imports: [StreamingModule],
  controllers: [
    ApiAgentsController,
    ApiAgentWorkspaceController,
    ApiEnvironmentsController,
    ApiSessionsController,
    ApiReplaysController,
    ApiSessionEventsController,
    ApiVaultsController,
    ApiWebhooksController,
    ApiMemoryStoresController,
    ApiMemoriesController,
    ApiVaultCredentialsController,
    ApiFilesController,
    ApiDeploymentsController,
    ApiMultiagentController,
    ApiWorkController,
    ApiWorkerSessionsController,
    ApiHandsController,
  ],
  providers: [WorkQueueService],
})
export class ApiModule {}
