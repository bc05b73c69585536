import { Module } from '@nestjs/common';
import { TenancyModule } from '../tenancy/tenancy.module.js';
import { AgentsHandler } from './agents.handler.js';
import { AgentsRepository } from './agents.repository.js';
import { AgentsService } from './agents.service.js';
import { ModelCatalog } from './model-catalog.js';

@Module({
  imports: [TenancyModule],
  controllers: [AgentsHandler],
  providers: [AgentsService, AgentsRepository, ModelCatalog],
  exports: [AgentsService, ModelCatalog],
})
export class AgentsModule {}
