import { Module } from '@nestjs/common';
import { AdminTenantsController } from './admin-tenants.controller.js';
import { AdminUsersController } from './admin-users.controller.js';
import { AgentSharesController } from './agent-shares.controller.js';
import { ApiKeysController } from './api-keys.controller.js';
import { AuditLogController } from './audit-log.controller.js';
import { NamespaceMembersController } from './namespace-members.controller.js';
import { NamespacesController } from './namespaces.controller.js';
import { TenantsController } from './tenants.controller.js';

/**
 * Tenancy and access routes: users, API keys, namespaces and their members, shares and the audit log
 * under `/api`; tenants under `/api/admin/tenants` and `/v1/tenants`.
 */
@Module({
  controllers: [
    AdminUsersController,
    ApiKeysController,
    NamespacesController,
    NamespaceMembersController,
    AuditLogController,
    AgentSharesController,
    AdminTenantsController,
    TenantsController,
  ],
})
export class AccessModule {}
