export { DatabaseAdmin, databaseUrlFor } from './admin/database-admin.js';
export { createPrismaClient } from './client/prisma-client.factory.js';
export { createSqlPool } from './client/sql-pool.factory.js';
export { withSqlTransaction } from './client/sql-transaction.js';
export type { TransactionClient } from './client/transaction.js';
export { isUniqueViolation } from './errors/prisma-errors.js';
export { isDatabaseUnavailable } from './errors/database-unavailable.js';
export type { ServiceDatabase } from './ownership/table-owners.js';
export { applyMigrations } from './migrations/apply-migrations.js';
export { migrationsDir } from './migrations/migration-paths.js';

export { Prisma, PrismaClient } from './generated/prisma/client.js';
export { EnvironmentType, NamespaceRole, SessionStatus, WorkItemState } from './generated/prisma/client.js';
export type {
  Agent,
  AgentShare,
  AgentVersion,
  ApiKey,
  AuditLog,
  Deployment,
  DeploymentRun,
  MultiagentRun,
  Environment,
  EnvironmentBuild,
  EnvironmentKey,
  File,
  Memory,
  MemoryStore,
  MemoryVersion,
  Dream,
  Namespace,
  NamespaceMember,
  Session,
  SessionEvent,
  SessionReplay,
  Skill,
  SkillVersion,
  Tenant,
  User,
  Vault,
  VaultCredential,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryAttempt,
  WorkItem,
} from './generated/prisma/client.js';
