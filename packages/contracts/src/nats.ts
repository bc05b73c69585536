// What services say to each other over NATS: each entity's subjects, request and reply schemas.
export { PubSubjects, replicaBeatSubject, replicaSubject, rpcSubject } from './nats/subject.js';
export type { RpcParsedRequest, RpcRequest, RpcResponse, RpcSubject } from './nats/subject.js';
export { ActorSchema } from './nats/actor.js';
export type { Actor, Role } from './nats/actor.js';
export { ControlSubjects } from './nats/control-subjects.js';
export { ControlWorkspaceSubjects } from './agents/agent-workspace-subjects.js';
export { AgentWorkspaceRowSubjects } from './agents/agent-workspace-row-subjects.js';
export type { AgentWorkspaceChange } from './agents/agent-workspace-row-subjects.js';
export {
  CreateEnvironmentKeyRequestSchema,
  EnvironmentKeySchema,
} from './environments/environment-subjects.js';
export type { CreateEnvironmentKeyRequest, EnvironmentKey } from './environments/environment-subjects.js';
export { EnvironmentCredentialSubjects } from './environments/environment-credential-subjects.js';
export type { SandboxCredential } from './environments/environment-credential-subjects.js';
export { SessionResourceSubjects } from './sessions/session-resource-subjects.js';
export type { MemoryWriteBack, RuntimeSessionResource } from './sessions/session-resource-subjects.js';
export {
  AGENT_DEFINITION_ENTRIES,
  MOUNTS_ROOT,
  SESSION_MOUNT_PATHS,
  SessionMountSchema,
  isWritableMount,
  sessionArtefactsRoot,
} from './sessions/session-mounts.js';
export type { SessionMount, SessionMountSource } from './sessions/session-mounts.js';
export { MountContentSubjects } from './sessions/mount-content-subjects.js';
export type { MountedSkillVersion } from './sessions/mount-content-subjects.js';
export { ThreadSubjects } from './sessions/thread-subjects.js';
export type { ListThreadsRpcRequest } from './sessions/thread-subjects.js';
export { SessionRowSubjects } from './sessions/session-row-subjects.js';
export type { NewSessionRow, SessionRowChanges } from './sessions/session-row-subjects.js';
export {
  CheckpointRestoreSubject,
  CheckpointSubjects,
  RollbackResultSchema,
} from './sessions/checkpoint-subjects.js';
export type { RollbackResult } from './sessions/checkpoint-subjects.js';
export { ReplaySubjects } from './replays/replay-subjects.js';
export {
  DataplaneSubjects,
  HandsCancelSchema,
  HandsExecResultSchema,
  HandsMcpOutputSchema,
  HandsPrepareSchema,
  HandsRegistry,
  HandsSessionEndedSchema,
  HandsSubjects,
  IDEMPOTENCY_KEY_RETENTION_MS,
  READ_ONLY_HANDS_TOOLS,
  StoredEventSchema,
  handsCallKey,
  handsDurableRoots,
  handsResultKey,
} from './session-events/dataplane-subjects.js';
export type {
  AppendIdempotency,
  EventPage,
  HandsCancel,
  HandsExecRequest,
  HandsExecResult,
  HandsMcpOutput,
  HandsMcpRequest,
  HandsPrepare,
  HandsSessionEnded,
  ListEventsRpcRequest,
  SandboxNetworking,
  SandboxProviderChoice,
  StoredEvent,
} from './session-events/dataplane-subjects.js';
export { UpkeepSubjects } from './session-events/upkeep-subjects.js';
export { ControlUpkeepSubjects } from './retention/retention-subjects.js';
export type { ControlRetainedTable } from './retention/retention-subjects.js';
export { ClusterHandsHeartbeatSchema, HandsHeartbeatKeys } from './hands/hands-heartbeat.js';
export type { ClusterHandsHeartbeat, HandsWorker } from './hands/hands-heartbeat.js';
export { SkillFileSubjects } from './skills/skill-files-subjects.js';
export type { SkillFile, SkillVersionFiles } from './skills/skill-files-subjects.js';
export { McpCredentialSubjects } from './vaults/mcp-credential-subjects.js';
export type { McpServerCredential } from './vaults/mcp-credential-subjects.js';
export { WebhookDeliverySubjects, WebhookDeliverySupportSubjects } from './webhooks/webhook-subjects.js';
export {
  DeploymentChangedSchema,
  DeploymentRunSubjects,
  MultiagentRunSchema,
  SchedulerPubSubjects,
  SchedulerSubjects,
} from './deployments/scheduler-subjects.js';
export type {
  DeploymentChanged,
  DeploymentRunTrigger,
  MultiagentRun,
  MultiagentRunEntry,
  MultiagentRunRpcRequest,
  StartDeploymentRunReply,
} from './deployments/scheduler-subjects.js';
export type { AuthenticatedUser, VerifiedApiKey } from './tenancy/auth-subjects.js';
export {
  AccessListQuerySchema,
  AuditListQuerySchema,
  ChangePasswordRequestSchema,
  CreateApiKeyRequestSchema,
  CreateNamespaceRequestSchema,
  CreateUserRequestSchema,
  NamespaceInfoSchema,
  ShareAgentRequestSchema,
  UpdateUserRequestSchema,
} from './tenancy/access-subjects.js';
export type {
  AccessListQuery,
  AgentShare,
  AgentSharePermission,
  ApiKeyInfo,
  ApiKeyPermission,
  AuditEntry,
  AuditListQuery,
  ChangePasswordRequest,
  CreateApiKeyRequest,
  CreateNamespaceRequest,
  CreateUserRequest,
  CreatedApiKey,
  ManagedUser,
  NamespaceInfo,
  ShareAgentRequest,
  UpdateUserRequest,
} from './tenancy/access-subjects.js';
export {
  AddNamespaceMemberRequestSchema,
  CreateTenantRequestSchema,
  CreatedTenantSchema,
  NamespaceMemberSchema,
  RemovedNamespaceMemberSchema,
  TenantInfoSchema,
  UpdateNamespaceMemberRequestSchema,
} from './tenancy/tenancy-subjects.js';
export type {
  AddNamespaceMemberRequest,
  CreateTenantRequest,
  CreatedTenant,
  NamespaceMember,
  RemovedNamespaceMember,
  TenantInfo,
  UpdateNamespaceMemberRequest,
} from './tenancy/tenancy-subjects.js';
export { AccessChangedSchema } from './tenancy/access-changes.js';
export type { AccessChanged, ParsedAccessChanged } from './tenancy/access-changes.js';
export { HandsStatusSchema, WorkSubjects, WorkerAuthSubjects } from './work/work-subjects.js';
export type { HandsStatus, PendingToolCall, WorkPrincipal } from './work/work-subjects.js';
export { EnvironmentBuildSubjects } from './environments/environment-build-subjects.js';
