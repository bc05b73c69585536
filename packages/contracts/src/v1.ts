// The public /v1 API (Claude Managed Agents compatible): each entity's request, resource and list schemas.
export {
  LIMITS,
  ListParamsSchema,
  MetadataPatchSchema,
  MetadataSchema,
  applyMetadataPatch,
} from './common/common.js';
export type { ListParams, Metadata, MetadataPatch } from './common/common.js';
export { decodeCursor, decodeIdCursor, encodeCursor, invalidCursor, pageSchema } from './common/paging.js';
export type { Page } from './common/paging.js';
export {
  CMA_ERROR_TYPES,
  CMA_ERROR_TYPE_BY_CODE,
  ErrorEnvelopeSchema,
  toErrorEnvelope,
} from './common/error-envelope.js';
export {
  AgentSchema,
  CreateAgentRequestSchema,
  ModelParamsSchema,
  RetrieveAgentParamsSchema,
  UpdateAgentRequestSchema,
  toModelConfig,
} from './agents/agents.js';
export type {
  Agent,
  AgentSkill,
  AgentSnapshot,
  CreateAgentRequest,
  McpServer,
  UpdateAgentRequest,
} from './agents/agents.js';
export type { AgentTool, MemoryToolName, MemoryToolset } from './agents/agent-tools.js';
export { normalizeAgentTools } from './agents/agent-tool-defaults.js';
export {
  CreateEnvironmentRequestSchema,
  EnvironmentDeletedSchema,
  EnvironmentSchema,
  NetworkingSchema,
  UpdateEnvironmentRequestSchema,
  normalizeEnvironmentConfig,
} from './environments/environments.js';
export type {
  CreateEnvironmentRequest,
  Environment,
  EnvironmentConfig,
  EnvironmentDeleted,
  Packages,
  UpdateEnvironmentRequest,
} from './environments/environments.js';
export {
  BUILD_LOG_MAX_BYTES,
  EnvironmentBuildLogSchema,
  canonicalPackages,
} from './environments/environment-build.js';
export type {
  EnvironmentBuild,
  EnvironmentBuildLog,
  EnvironmentBuildStatus,
} from './environments/environment-build.js';
export {
  CreateSessionRequestSchema,
  ListSessionsParamsSchema,
  SessionDeletedSchema,
  SessionSchema,
  SessionStatusSchema,
  UpdateSessionRequestSchema,
} from './sessions/sessions.js';
export type {
  CallerIdentity,
  CreateSessionRequest,
  ListSessionsParams,
  Session,
  SessionAgent,
  SessionDeleted,
  UpdateSessionRequest,
} from './sessions/sessions.js';
export {
  CheckpointSchema,
  ForkSessionRequestSchema,
  ListCheckpointsParamsSchema,
  RollbackSessionRequestSchema,
} from './sessions/checkpoints.js';
export type { Checkpoint, ForkSessionRequest } from './sessions/checkpoints.js';
export {
  CreateReplayBatchRequestSchema,
  CreateReplayRequestSchema,
  ListReplaysParamsSchema,
  ReplayBatchSchema,
  ReplaySchema,
} from './replays/replays.js';
export type {
  CreateReplayBatchRequest,
  CreateReplayRequest,
  ListReplaysParams,
  Replay,
  ReplayBatch,
  ReplayComparison,
  ReplayStatus,
  ReplaySummary,
  ReplayToolCall,
  ReplayTurn,
  ReplayTurnSide,
  ReplayVerdict,
} from './replays/replays.js';
export {
  AddSessionResourceRequestSchema,
  FileResourceParamsSchema,
  RESOURCE_MOUNTS,
  SessionResourceDeletedSchema,
  SessionResourceSchema,
  UpdateSessionResourceRequestSchema,
} from './sessions/session-resources.js';
export type {
  AddSessionResourceRequest,
  Checkout,
  SessionResource,
  SessionResourceDeleted,
  SessionResourceParams,
  UpdateSessionResourceRequest,
} from './sessions/session-resources.js';
export { ListSessionThreadsParamsSchema } from './sessions/session-threads.js';
export type { ListSessionThreadsParams, SessionThread } from './sessions/session-threads.js';
export { CreateSkillFormSchema, ListSkillsParamsSchema, SkillFrontmatterSchema } from './skills/skills.js';
export type {
  ListSkillsParams,
  Skill,
  SkillFrontmatter,
  SkillSourceType,
  SkillVersion,
} from './skills/skills.js';
export {
  CreateMemoryRequestSchema,
  CreateMemoryStoreRequestSchema,
  ListMemoriesParamsSchema,
  ListMemoryVersionsParamsSchema,
  MemoryDeletedSchema,
  MemoryPathSchema,
  MemorySchema,
  MemoryStoreDeletedSchema,
  MemoryStoreSchema,
  MemoryVersionSchema,
  MemoryViewSchema,
  UpdateMemoryRequestSchema,
  UpdateMemoryStoreRequestSchema,
} from './memory-stores/memory-stores.js';
export type {
  CreateMemoryRequest,
  CreateMemoryStoreRequest,
  ListMemoriesParams,
  ListMemoryVersionsParams,
  Memory,
  MemoryActor,
  MemoryListItem,
  MemoryStore,
  MemoryVersion,
  MemoryView,
  UpdateMemoryRequest,
  UpdateMemoryStoreRequest,
} from './memory-stores/memory-stores.js';
export { CreateDreamRequestSchema, DreamSchema, ListDreamsParamsSchema } from './dreams/dreams.js';
export type {
  CreateDreamRequest,
  Dream,
  DreamInput,
  DreamOutputBehavior,
  DreamStatus,
  DreamUsage,
  ListDreamsParams,
} from './dreams/dreams.js';
export {
  CreateVaultRequestSchema,
  UpdateVaultRequestSchema,
  VaultDeletedSchema,
  VaultSchema,
} from './vaults/vaults.js';
export type { CreateVaultRequest, UpdateVaultRequest, Vault, VaultDeleted } from './vaults/vaults.js';
export {
  CreateCredentialRequestSchema,
  CredentialDeletedSchema,
  CredentialSchema,
  UpdateCredentialRequestSchema,
  publicCredentialAuth,
} from './vaults/vault-credentials.js';
export type {
  CreateCredentialRequest,
  Credential,
  CredentialAuth,
  CredentialAuthParams,
  CredentialDeleted,
  UpdateCredentialRequest,
} from './vaults/vault-credentials.js';
export {
  CreateWebhookEndpointRequestSchema,
  NewWebhookEndpointSchema,
  RegenerateSigningSecretRequestSchema,
  UpdateWebhookEndpointRequestSchema,
  WebhookDeliverySchema,
  WebhookEndpointDeletedSchema,
  WebhookEndpointSchema,
  WebhookSigningSecretSchema,
} from './webhooks/webhooks.js';
export type {
  CreateWebhookEndpointRequest,
  NewWebhookEndpoint,
  RegenerateSigningSecretRequest,
  UpdateWebhookEndpointRequest,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointDeleted,
  WebhookSigningSecret,
} from './webhooks/webhooks.js';
export { WebhookEventTypeSchema } from './webhooks/webhook-events.js';
export type { WebhookEvent, WebhookEventType } from './webhooks/webhook-events.js';
export { ListFilesParamsSchema, UploadFileFormSchema } from './files/files.js';
export type { FileMetadata, ListFilesParams } from './files/files.js';
export {
  CreateDeploymentRequestSchema,
  DeploymentRunSchema,
  DeploymentSchema,
  ListDeploymentRunsParamsSchema,
  ListDeploymentsParamsSchema,
  UpdateDeploymentRequestSchema,
} from './deployments/deployments.js';
export type {
  CreateDeploymentRequest,
  Deployment,
  DeploymentError,
  DeploymentInitialEvent,
  DeploymentRun,
  ListDeploymentRunsParams,
  ListDeploymentsParams,
  UpdateDeploymentRequest,
} from './deployments/deployments.js';
export type { CronScheduleParams } from './deployments/cron-schedule.js';
export {
  V1CreatedTenantSchema,
  V1TenantPageSchema,
  toV1CreatedTenant,
  toV1Tenant,
} from './tenancy/tenants.js';
export {
  HeartbeatWorkParamsSchema,
  NO_HEARTBEAT,
  PollWorkParamsSchema,
  StopWorkRequestSchema,
  UpdateWorkRequestSchema,
  WorkHeartbeatSchema,
  WorkQueueStatsSchema,
  WorkSchema,
  WorkStateSchema,
  decodeWorkSecret,
  encodeWorkSecret,
} from './work/environment-work.js';
export type {
  HeartbeatWorkParams,
  PollWorkParams,
  StopWorkRequest,
  UpdateWorkRequest,
  Work,
  WorkHeartbeat,
  WorkQueueStats,
  WorkState,
} from './work/environment-work.js';
export { UsageQuerySchema, UsageReportSchema, UsageSubjects } from './usage/usage.js';
export type { UsageQuery, UsageReport } from './usage/usage.js';
export { fromMicros, toMicros, toUsageSnapshot } from './usage/list-cost.js';
