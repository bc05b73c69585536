import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module.js';
import { EnvironmentsModule } from '../environments/environments.module.js';
import { MemoryStoresModule } from '../memory-stores/memory-stores.module.js';
import { SessionsModule } from '../sessions/sessions.module.js';
import { VaultsModule } from '../vaults/vaults.module.js';
import { DeploymentChangesPublisher } from './deployment-changes.publisher.js';
import { DeploymentRunStarter } from './deployment-run-starter.service.js';
import { DeploymentRunsRepository } from './deployment-runs.repository.js';
import { DeploymentRunsService } from './deployment-runs.service.js';
import { DeploymentTriggersHandler } from './deployment-triggers.handler.js';
import { DeploymentWebhooksService } from './deployment-webhooks.service.js';
import { DeploymentsHandler } from './deployments.handler.js';
import { DeploymentsRepository } from './deployments.repository.js';
import { DeploymentsService } from './deployments.service.js';

@Module({
  imports: [AgentsModule, EnvironmentsModule, VaultsModule, MemoryStoresModule, SessionsModule],
  controllers: [DeploymentsHandler, DeploymentTriggersHandler],
  providers: [
    DeploymentsRepository,
    DeploymentsService,
    DeploymentRunsRepository,
    DeploymentRunsService,
    DeploymentChangesPublisher,
    DeploymentRunStarter,
    DeploymentWebhooksService,
  ],
  exports: [DeploymentsService],
})
export class DeploymentsModule {}
