import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { AgentSharesRepository } from './agent-shares.repository.js';
import { AgentSharesService } from './agent-shares.service.js';
import { NamespaceMembersService } from './namespace-members.service.js';
import { NamespacesService } from './namespaces.service.js';
import { TenancyHandler } from './tenancy.handler.js';
import { TenantsHandler } from './tenants.handler.js';
import { TenantsService } from './tenants.service.js';

@Module({
  imports: [AuthModule],
  controllers: [TenancyHandler, TenantsHandler],
  providers: [
    NamespacesService,
    NamespaceMembersService,
    TenantsService,
    AgentSharesService,
    AgentSharesRepository,
  ],
  exports: [AgentSharesService],
})
export class TenancyModule {}
