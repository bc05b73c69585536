import { Module } from '@nestjs/common';
import { StreamingModule } from '../streaming/streaming.module.js';
import { AgentsController } from './agents.controller.js';
import { EnvironmentsController } from './environments.controller.js';
import { SessionEventsController } from './session-events.controller.js';
import { SessionThreadsController } from './session-threads.controller.js';
import { SessionsController } from './sessions.controller.js';
import { SessionResourcesController } from './session-resources.controller.js';
import { MemoriesController } from './memories.controller.js';
import { MemoryStoresController } from './memory-stores.controller.js';
import { DreamsController } from './dreams.controller.js';
import { MemoryVersionsController } from './memory-versions.controller.js';
import { VaultCredentialsController } from './vault-credentials.controller.js';
import { VaultsController } from './vaults.controller.js';
import { WebhooksController } from './webhooks.controller.js';
import { DeploymentRunsController } from './deployment-runs.controller.js';
import { DeploymentsController } from './deployments.controller.js';
import { FilesController } from './files.controller.js';
import { MultipartBodyParser } from './multipart-body.parser.js';
import { SkillsController } from './skills.controller.js';
import { HandsController } from './hands.controller.js';
import { UsageController } from './usage.controller.js';
import { ReplaysController } from './replays.controller.js';

@Module({
  imports: [StreamingModule],
  controllers: [
    AgentsController,
    EnvironmentsController,
    SessionsController,
    SessionEventsController,
    SessionThreadsController,
    SessionResourcesController,
    VaultsController,
    WebhooksController,
    VaultCredentialsController,
    MemoryStoresController,
    DreamsController,
    MemoriesController,
    MemoryVersionsController,
    DeploymentsController,
    DeploymentRunsController,
    FilesController,
    SkillsController,
    UsageController,
    HandsController,
    ReplaysController,
  ],
  providers: [MultipartBodyParser],
})
export class V1Module {}
