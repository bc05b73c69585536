import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module.js';
import { EnvironmentsModule } from '../environments/environments.module.js';
import { MemoryStoresModule } from '../memory-stores/memory-stores.module.js';
import { VaultsModule } from '../vaults/vaults.module.js';
import { DeploymentRunsRepository } from './deployment-runs.repository.js';
import { DeploymentRunsService } from './deployment-runs.service.js';
import { DeploymentsHandler } from './deployments.handler.js';
import { DeploymentsRepository } from './deployments.repository.js';
import { DeploymentsService } from './deployments.service.js';

@Module({
  imports: [AgentsModule, EnvironmentsModule, VaultsModule, MemoryStoresModule],
  controllers: [DeploymentsHandler],
  providers: [DeploymentsRepository, DeploymentsService, DeploymentRunsRepository, DeploymentRunsService],
  exports: [DeploymentsService],
})
export class DeploymentsModule {}
