export { DatabaseAdmin, databaseUrlFor } from './admin/database-admin.js';
export { createPrismaClient } from './client/prisma-client.factory.js';
export type { PrismaClientOptions } from './client/prisma-client.factory.js';
export { runInTransaction } from './client/transaction.js';
export { createSqlPool } from './client/sql-pool.factory.js';
export { withSqlTransaction } from './client/sql-transaction.js';
export type { SqlPoolOptions } from './client/sql-pool.factory.js';
export type { TransactionClient, TransactionOptions } from './client/transaction.js';
export { isRetryableTransactionError, isUniqueViolation } from './errors/prisma-errors.js';
export { isDatabaseUnavailable } from './errors/database-unavailable.js';
export { TABLE_OWNERS } from './ownership/table-owners.js';
export type { OwningService, ServiceDatabase } from './ownership/table-owners.js';
export { applyMigrations } from './migrations/apply-migrations.js';
export type { ApplyMigrationsOptions } from './migrations/apply-migrations.js';
export { MigrationError } from './migrations/migration.error.js';
export { dbPackageDir, migrationsDir } from './migrations/migration-paths.js';

export { Prisma, PrismaClient } from './generated/prisma/client.js';
export {
  EnvironmentType,
  NamespaceRole,
  SessionStatus,
  UserRole,
  WorkItemState,
} from './generated/prisma/client.js';
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
  IdempotencyKey,
  Memory,
  MemoryStore,
  MemoryVersion,
  Dream,
  Namespace,
  NamespaceMember,
  Session,
  SessionEvent,
  SessionReplay,
  SessionThread,
  Skill,
  SkillVersion,
  Tenant,
  UsageLedger,
  User,
  Vault,
  VaultCredential,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryAttempt,
  WorkItem,
  Worker,
  WorkspaceFile,
} from './generated/prisma/client.js';
