import type { Prisma, PrismaClient } from '../generated/prisma/client.js';

/** The five services (DESIGN §1); each Postgres table has exactly one of them as its writer. */
export type OwningService = 'gateway' | 'control' | 'dataplane' | 'scheduler' | 'worker';

/**
 * Which service writes each table (by Prisma model; the table names are in docs/architecture.md). Any other
 * service may read a table but asks its owner over NATS to change it. Typed against every model of the
 * schema, so a new model without an owner does not compile; `table-ownership.test.ts` fails the test run
 * when a service's sources write a table it does not own.
 */
export const TABLE_OWNERS = {
  // Definitions and governance.
  Tenant: 'control',
  Namespace: 'control',
  NamespaceMember: 'control',
  User: 'control',
  ApiKey: 'control',
  Agent: 'control',
  AgentVersion: 'control',
  AgentShare: 'control',
  Environment: 'control',
  EnvironmentKey: 'control',
  // Reported by the worker that builds the image, recorded by control with the environment it belongs to.
  EnvironmentBuild: 'control',
  Skill: 'control',
  SkillVersion: 'control',
  MemoryStore: 'control',
  Memory: 'control',
  MemoryVersion: 'control',
  Dream: 'control',
  Vault: 'control',
  VaultCredential: 'control',
  File: 'control',
  Deployment: 'control',
  // A deployment run is started by control (webhook trigger or the scheduler's cron asking it), which
  // creates its session and records the run in one place.
  DeploymentRun: 'control',
  Webhook: 'control',
  AuditLog: 'control',
  // Repository tokens are sealed with the vault cipher, which only control holds.
  SessionResourceToken: 'control',
  // Sessions at run time.
  Session: 'dataplane',
  SessionThread: 'dataplane',
  WorkflowRun: 'dataplane',
  SessionEvent: 'dataplane',
  SessionEventKey: 'dataplane',
  // Turn boundaries: taken as a turn closes; their workspace is restored by a worker into its durable copy.
  SessionCheckpoint: 'dataplane',
  SessionCheckpointFile: 'dataplane',
  SessionCheckpointBlob: 'dataplane',
  WorkItem: 'dataplane',
  Worker: 'dataplane',
  DataplaneReplica: 'dataplane',
  UsageLedger: 'dataplane',
  // Agent, session and artefact workspaces; control's agent-workspace API writes through the dataplane.
  WorkspaceFile: 'dataplane',
  // The durable copy of a session's Hands workspace, synced by the worker running its tools.
  HandsWorkspaceFile: 'worker',
  HandsWorkspaceChunk: 'worker',
  // Claimed by the worker a session is bound to; every write to the durable copy checks it.
  HandsWorkspaceFence: 'worker',
  // Time and retries.
  MultiagentRun: 'scheduler',
  SessionReplay: 'scheduler',
  SessionReplayBatch: 'scheduler',
  WebhookDelivery: 'scheduler',
  WebhookDeliveryAttempt: 'scheduler',
  // Request idempotency at the public edge.
  IdempotencyKey: 'gateway',
} as const satisfies Record<Prisma.ModelName, OwningService>;

export type ModelName = keyof typeof TABLE_OWNERS;

/** The models `service` owns. */
type OwnedModel<S extends OwningService> = {
  [M in ModelName]: (typeof TABLE_OWNERS)[M] extends S ? M : never;
}[ModelName];

/** What a service may do with a table it only reads. */
type ReadMethod =
  | 'findUnique'
  | 'findUniqueOrThrow'
  | 'findFirst'
  | 'findFirstOrThrow'
  | 'findMany'
  | 'count'
  | 'aggregate'
  | 'groupBy';

type ForeignModel<S extends OwningService> = Exclude<ModelName, OwnedModel<S>>;

/**
 * The client a service's repositories inject instead of the whole `PrismaClient`: the delegates of the
 * tables it owns as they are, those of every other table read-only, so a write to another service's table
 * does not compile. Raw SQL is checked by the source scan instead.
 */
export type ServiceDatabase<S extends OwningService> = Omit<PrismaClient, Uncapitalize<ForeignModel<S>>> & {
  readonly [M in ForeignModel<S> as Uncapitalize<M>]: Pick<PrismaClient[Uncapitalize<M>], ReadMethod>;
};
