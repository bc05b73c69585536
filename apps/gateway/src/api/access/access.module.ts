import { Module } from '@nestjs/common';
import { AdminUsersController } from './admin-users.controller.js';
import { AgentSharesController } from './agent-shares.controller.js';
import { ApiKeysController } from './api-keys.controller.js';
import { AuditLogController } from './audit-log.controller.js';
import { NamespacesController } from './namespaces.controller.js';

/** Tenancy and access routes under `/api`: users, API keys, namespaces, shares and the audit log. */
@Module({
  controllers: [AdminUsersController, ApiKeysController, NamespacesController, AuditLogController, AgentSharesController],
})
export class AccessModule {}
