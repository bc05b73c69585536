import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { AgentSharesRepository } from './agent-shares.repository.js';
import { AgentSharesService } from './agent-shares.service.js';
import { NamespacesService } from './namespaces.service.js';
import { TenancyHandler } from './tenancy.handler.js';

@Module({
  imports: [AuthModule],
  controllers: [TenancyHandler],
  providers: [NamespacesService, AgentSharesService, AgentSharesRepository],
  exports: [AgentSharesService],
})
export class TenancyModule {}
