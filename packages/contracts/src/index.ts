export { AppError, ErrorBodySchema, ErrorCodeSchema, HTTP_STATUS_BY_CODE } from './errors.js';
export type { AppErrorOptions, ErrorBody, ErrorCode } from './errors.js';
export { invalidRequest, requestIssues, type RequestIssue } from './invalid-request.js';
export { ActorSchema, RoleSchema } from './nats/actor.js';
export type { Actor, Role } from './nats/actor.js';
export { PubSubjects, rpcSubject, V1 } from './nats/subject.js';
export { AccessChangedSchema } from './nats/access-changes.js';
export type { AccessChanged, ParsedAccessChanged } from './nats/access-changes.js';
export type { RpcParsedRequest, RpcRequest, RpcResponse, RpcSubject } from './nats/subject.js';
export {
  Jobs,
  ReconcileJobSchema,
  SessionDrainJobSchema,
  DeploymentFireJobSchema,
  MultiagentRunJobSchema,
} from './jobs/catalog.js';
export type { DeploymentFireJob, MultiagentRunJob } from './jobs/catalog.js';
export {
  DeploymentChangedSchema,
  DeploymentRunSubjects,
  DeploymentRunTriggerSchema,
  MULTIAGENT_MAX_AGENTS,
  MultiagentRunEntrySchema,
  MultiagentRunReplySchema,
  MultiagentRunResultSchema,
  MultiagentRunRpcRequestSchema,
  MultiagentRunSchema,
  RunDeploymentRpcRequestSchema,
  SchedulerPubSubjects,
  SchedulerSubjects,
  StartDeploymentRunReplySchema,
} from './nats/scheduler-subjects.js';
export type {
  DeploymentChanged,
  DeploymentRunTrigger,
  MultiagentRun,
  MultiagentRunEntry,
  MultiagentRunReply,
  MultiagentRunResult,
  MultiagentRunRpcRequest,
  StartDeploymentRunReply,
} from './nats/scheduler-subjects.js';
export type { JobDefinition, ReconcileJob, SessionDrainJob } from './jobs/catalog.js';
export {
  AuthenticatedUserSchema,
  ControlSubjects,
  LoginRpcRequestSchema,
  pageOf,
  VerifiedApiKeySchema,
} from './nats/control-subjects.js';
export type { AuthenticatedUser, VerifiedApiKey } from './nats/control-subjects.js';
export {
  ControlResourceSubjects,
  CreateEnvironmentKeyRequestSchema,
  EnvironmentKeySchema,
} from './nats/control-resource-subjects.js';
export type { CreateEnvironmentKeyRequest, EnvironmentKey } from './nats/control-resource-subjects.js';
export {
  ControlStoreSubjects,
  FileContentSchema,
  SkillUploadSchema,
  UploadFileRpcBodySchema,
} from './nats/control-store-subjects.js';
export {
  AGENT_DEFINITION_ENTRIES,
  isWritableMount,
  MOUNTS_ROOT,
  SESSION_MOUNT_PATHS,
  SessionMountSchema,
  SessionMountSourceSchema,
  sessionArtefactsRoot,
} from './nats/session-mounts.js';
export type { SessionMount, SessionMountSource } from './nats/session-mounts.js';
export {
  AppendEventsRpcRequestSchema,
  AppendIdempotencySchema,
  IDEMPOTENCY_KEY_RETENTION_MS,
  DataplaneSubjects,
  EventPageSchema,
  HandsCancelSchema,
  HandsExecRequestSchema,
  HandsExecResultSchema,
  handsResultKey,
  HandsMcpOutputSchema,
  HandsMcpRequestSchema,
  HandsSubjects,
  HandsRegistry,
  ListEventsRpcRequestSchema,
  StoredEventSchema,
} from './nats/dataplane-subjects.js';
export type {
  AppendIdempotency,
  EventPage,
  HandsCancel,
  HandsExecRequest,
  HandsExecResult,
  HandsMcpOutput,
  HandsMcpRequest,
  ListEventsRpcRequest,
  SandboxNetworking,
  StoredEvent,
} from './nats/dataplane-subjects.js';
export { ThreadSubjects, ListThreadsRpcRequestSchema } from './nats/thread-subjects.js';
export type { ListThreadsRpcRequest } from './nats/thread-subjects.js';
export { SessionRowSubjects } from './nats/session-row-subjects.js';
export type { NewSessionRow, SessionRowChanges } from './nats/session-row-subjects.js';
export { UpkeepSubjects } from './nats/upkeep-subjects.js';
export {
  SessionThreadCreatedPayloadSchema,
  SessionThreadStatusRunningPayloadSchema,
  SessionThreadStatusIdlePayloadSchema,
  SessionThreadStatusRescheduledPayloadSchema,
  SessionThreadStatusTerminatedPayloadSchema,
  AgentThreadMessageSentPayloadSchema,
  AgentThreadMessageReceivedPayloadSchema,
} from './events/thread-events.js';
export {
  ID_PREFIXES,
  newId,
  newIdBody,
  idTimestamp,
  hasIdPrefix,
  idSchema,
  AgentIdSchema,
  EnvironmentIdSchema,
  SessionIdSchema,
  SessionEventIdSchema,
  SessionThreadIdSchema,
  SessionResourceIdSchema,
  VaultIdSchema,
  VaultCredentialIdSchema,
  MemoryStoreIdSchema,
  MemoryIdSchema,
  MemoryVersionIdSchema,
  DeploymentIdSchema,
  DeploymentRunIdSchema,
  WorkIdSchema,
  SkillIdSchema,
  SkillVersionIdSchema,
  FileIdSchema,
  OutcomeIdSchema,
  UserIdSchema,
  TenantIdSchema,
  NamespaceIdSchema,
  ApiKeyIdSchema,
  EnvironmentKeyIdSchema,
  WebhookIdSchema,
} from './ids.js';
export type { IdKind, IdPrefix } from './ids.js';
export {
  TextBlockSchema,
  ImageBlockSchema,
  DocumentBlockSchema,
  RedactedBlockSchema,
  SearchResultBlockSchema,
  UserContentBlockSchema,
  AgentContentBlockSchema,
  ToolResultContentBlockSchema,
} from './events/content-blocks.js';
export type {
  TextBlock,
  ImageBlock,
  DocumentBlock,
  RedactedBlock,
  SearchResultBlock,
  UserContentBlock,
  AgentContentBlock,
  ToolResultContentBlock,
} from './events/content-blocks.js';
export {
  INBOUND_EVENT_TYPES,
  OUTBOUND_EVENT_TYPES,
  SESSION_EVENT_TYPES,
  STREAM_ONLY_EVENT_TYPES,
  isInboundEventType,
  isOutboundEventType,
  isSessionEventType,
} from './events/event-types.js';
export type { InboundEventType, OutboundEventType, SessionEventType } from './events/event-types.js';
export {
  UserMessageEventParamsSchema,
  UserInterruptEventParamsSchema,
  UserToolConfirmationEventParamsSchema,
  UserToolResultEventParamsSchema,
  UserCustomToolResultEventParamsSchema,
  UserDefineOutcomeEventParamsSchema,
  SystemMessageEventParamsSchema,
  RubricSchema,
  InboundEventSchema,
  InitialEventSchema,
  SendEventsRequestSchema,
  MAX_EVENTS_PER_REQUEST,
} from './events/inbound-events.js';
export type {
  UserMessageEventParams,
  UserInterruptEventParams,
  UserToolConfirmationEventParams,
  UserToolResultEventParams,
  UserCustomToolResultEventParams,
  UserDefineOutcomeEventParams,
  SystemMessageEventParams,
  Rubric,
  InboundEvent,
  InitialEvent,
  SendEventsRequest,
} from './events/inbound-events.js';
export {
  UserMessagePayloadSchema,
  UserInterruptPayloadSchema,
  UserToolConfirmationPayloadSchema,
  UserToolResultPayloadSchema,
  UserCustomToolResultPayloadSchema,
  UserDefineOutcomePayloadSchema,
  SystemMessagePayloadSchema,
} from './events/inbound-payloads.js';
export {
  EvaluatedPermissionSchema,
  ToolEvaluationSchema,
  AgentMessagePayloadSchema,
  AgentThinkingPayloadSchema,
  AgentToolUsePayloadSchema,
  AgentToolResultPayloadSchema,
  AgentMcpToolUsePayloadSchema,
  AgentMcpToolResultPayloadSchema,
  AgentCustomToolUsePayloadSchema,
  AgentThreadContextCompactedPayloadSchema,
  SessionStatusRunningPayloadSchema,
  SessionStatusIdlePayloadSchema,
  SessionStatusTerminatedPayloadSchema,
  SessionStatusRescheduledPayloadSchema,
  SessionErrorPayloadSchema,
  SessionUsagePayloadSchema,
  SpanModelRequestStartPayloadSchema,
  SpanModelRequestEndPayloadSchema,
  MonetaryAmountSchema,
  UsageSnapshotSchema,
  BudgetLimitSchema,
  ModelUsageSchema,
} from './events/outbound-events.js';
export {
  OUTCOME_VERDICTS,
  OutcomeVerdictSchema,
  DEFAULT_OUTCOME_MAX_ITERATIONS,
  SpanOutcomeEvaluationStartPayloadSchema,
  SpanOutcomeEvaluationOngoingPayloadSchema,
  SpanOutcomeEvaluationEndPayloadSchema,
} from './events/outcome-events.js';
export type { OutcomeVerdict } from './events/outcome-events.js';
export type {
  EvaluatedPermission,
  ToolEvaluation,
  MonetaryAmount,
  UsageSnapshot,
  BudgetLimit,
  ModelUsage,
} from './events/outbound-events.js';
export {
  SESSION_ERROR_TYPES,
  SessionErrorTypeSchema,
  RetryStatusSchema,
  SessionErrorObjectSchema,
  sessionErrorTypeFor,
  toSessionErrorObject,
} from './events/session-error.js';
export type { SessionErrorType, RetryStatus, SessionErrorObject } from './events/session-error.js';
export { StopReasonSchema, RefusalStopDetailsSchema } from './events/stop-reason.js';
export type { StopReason, StopReasonType, RefusalStopDetails } from './events/stop-reason.js';
export {
  EventPayloadSchema,
  EventEnvelopeSchema,
  SessionEventSchema,
  toSessionEvent,
  splitSessionEvent,
} from './events/session-event.js';
export type { EventPayload, EventPayloadOf, EventEnvelope, SessionEvent } from './events/session-event.js';
export {
  DeltaTypeSchema,
  EventStartSchema,
  EventDeltaSchema,
  StreamOnlyBatchSchema,
  StreamOnlyEventSchema,
} from './events/stream-events.js';
export type {
  DeltaType,
  EventStart,
  EventDelta,
  StreamOnlyBatch,
  StreamOnlyEvent,
} from './events/stream-events.js';
export { ListEventsParamsSchema, StreamEventsParamsSchema } from './events/event-list-params.js';
export type { ListEventsParams, StreamEventsParams } from './events/event-list-params.js';
export {
  LIMITS,
  IsoDateTimeSchema,
  MetadataSchema,
  MetadataPatchSchema,
  applyMetadataPatch,
  QueryBooleanSchema,
  queryArraySchema,
  SortOrderSchema,
  ListParamsSchema,
  pageSchema,
  deletedSchema,
  NameSchema,
  DescriptionSchema,
} from './v1/common.js';
export type { Metadata, MetadataPatch, SortOrder, ListParams, Page } from './v1/common.js';
export {
  PermissionPolicySchema,
  AGENT_TOOLSET_TOOL_NAMES,
  AgentToolNameSchema,
  ToolsetDefaultConfigParamsSchema,
  AgentToolConfigParamsSchema,
  AgentToolsetParamsSchema,
  McpToolConfigParamsSchema,
  McpToolsetParamsSchema,
  ToolInputSchemaSchema,
  CustomToolSchema,
  AgentToolParamsSchema,
  ToolsetDefaultConfigSchema,
  AgentToolConfigSchema,
  AgentToolsetSchema,
  McpToolsetSchema,
  AgentToolSchema,
} from './v1/agent-tools.js';
export type {
  PermissionPolicy,
  AgentToolName,
  ToolsetDefaultConfigParams,
  AgentToolConfigParams,
  AgentToolsetParams,
  McpToolConfigParams,
  McpToolsetParams,
  ToolInputSchema,
  CustomTool,
  AgentToolParams,
  ToolsetDefaultConfig,
  AgentToolConfig,
  AgentToolset,
  McpToolset,
  AgentTool,
} from './v1/agent-tools.js';
export {
  DEFAULT_AGENT_TOOLSET_POLICY,
  DEFAULT_MCP_TOOLSET_POLICY,
  normalizeAgentTools,
  countAgentTools,
} from './v1/agent-tool-defaults.js';
export {
  MultiagentParamsSchema,
  MultiagentSchema,
  AgentReferenceSchema,
  AgentReferenceParamsSchema,
} from './v1/multiagent.js';
export type { MultiagentParams, Multiagent, AgentReference } from './v1/multiagent.js';
export {
  EffortLevelSchema,
  ModelConfigParamsSchema,
  ModelParamsSchema,
  ModelConfigSchema,
  toModelConfig,
  McpServerSchema,
  SkillParamsSchema,
  AgentSkillSchema,
  ExecutionIdentitySchema,
  CreateAgentRequestSchema,
  UpdateAgentRequestSchema,
  AgentSnapshotSchema,
  AgentSchema,
  RetrieveAgentParamsSchema,
} from './v1/agents.js';
export type {
  EffortLevel,
  ModelParams,
  ModelConfig,
  McpServer,
  SkillParams,
  AgentSkill,
  ExecutionIdentity,
  CreateAgentRequest,
  UpdateAgentRequest,
  AgentSnapshot,
  Agent,
  RetrieveAgentParams,
} from './v1/agents.js';
export {
  NetworkingParamsSchema,
  PackagesParamsSchema,
  EnvironmentConfigParamsSchema,
  NetworkingSchema,
  PackagesSchema,
  EnvironmentConfigSchema,
  normalizeEnvironmentConfig,
  EnvironmentScopeSchema,
  CreateEnvironmentRequestSchema,
  UpdateEnvironmentRequestSchema,
  EnvironmentSchema,
  EnvironmentDeletedSchema,
} from './v1/environments.js';
export type {
  NetworkingParams,
  PackagesParams,
  EnvironmentConfigParams,
  EnvironmentType,
  Networking,
  Packages,
  EnvironmentConfig,
  EnvironmentScope,
  CreateEnvironmentRequest,
  UpdateEnvironmentRequest,
  Environment,
  EnvironmentDeleted,
} from './v1/environments.js';
export {
  CheckoutSchema,
  MemoryStoreAccessSchema,
  GitHubRepositoryResourceParamsSchema,
  FileResourceParamsSchema,
  MemoryStoreResourceParamsSchema,
  SessionResourceParamsSchema,
  AddSessionResourceRequestSchema,
  UpdateSessionResourceRequestSchema,
  SessionResourceSchema,
  SessionResourceDeletedSchema,
  RESOURCE_MOUNTS,
} from './v1/session-resources.js';
export type {
  Checkout,
  MemoryStoreAccess,
  SessionResourceParams,
  AddSessionResourceRequest,
  UpdateSessionResourceRequest,
  SessionResource,
  SessionResourceDeleted,
} from './v1/session-resources.js';
export {
  SessionAgentParamsSchema,
  CreateSessionRequestSchema,
  UpdateSessionRequestSchema,
  SessionStatusSchema,
  SessionAgentSchema,
  SessionUsageSchema,
  SessionStatsSchema,
  OutcomeEvaluationSchema,
  SessionSchema,
  SessionDeletedSchema,
  ListSessionsParamsSchema,
} from './v1/sessions.js';
export type {
  SessionAgentParams,
  CreateSessionRequest,
  UpdateSessionRequest,
  SessionStatus,
  SessionAgent,
  SessionUsage,
  SessionStats,
  OutcomeEvaluation,
  Session,
  SessionDeleted,
  ListSessionsParams,
} from './v1/sessions.js';
export {
  CreateVaultRequestSchema,
  UpdateVaultRequestSchema,
  VaultSchema,
  VaultDeletedSchema,
} from './v1/vaults.js';
export type { CreateVaultRequest, UpdateVaultRequest, Vault, VaultDeleted } from './v1/vaults.js';
export {
  CredentialAuthParamsSchema,
  CreateCredentialRequestSchema,
  CredentialAuthUpdateParamsSchema,
  UpdateCredentialRequestSchema,
  CredentialAuthSchema,
  CredentialSchema,
  publicCredentialAuth,
  CredentialDeletedSchema,
} from './v1/vault-credentials.js';
export type {
  CredentialAuthParams,
  CreateCredentialRequest,
  UpdateCredentialRequest,
  CredentialAuth,
  Credential,
  CredentialDeleted,
} from './v1/vault-credentials.js';
export {
  CreateMemoryStoreRequestSchema,
  UpdateMemoryStoreRequestSchema,
  MemoryStoreSchema,
  MemoryStoreDeletedSchema,
  MEMORY_CONTENT_MAX_BYTES,
  MEMORY_CONTENT_TOO_LARGE,
  fitsMemoryContent,
  MemoryPathSchema,
  MemoryViewSchema,
  CreateMemoryRequestSchema,
  MemoryPreconditionSchema,
  UpdateMemoryRequestSchema,
  MemorySchema,
  MemoryPrefixSchema,
  MemoryListItemSchema,
  MemoryDeletedSchema,
  ListMemoriesParamsSchema,
  MemoryActorSchema,
  MemoryVersionOperationSchema,
  MemoryVersionSchema,
  ListMemoryVersionsParamsSchema,
} from './v1/memory-stores.js';
export type {
  CreateMemoryStoreRequest,
  UpdateMemoryStoreRequest,
  MemoryStore,
  MemoryView,
  CreateMemoryRequest,
  UpdateMemoryRequest,
  Memory,
  MemoryListItem,
  ListMemoriesParams,
  MemoryActor,
  MemoryVersion,
  ListMemoryVersionsParams,
} from './v1/memory-stores.js';
export {
  isCronExpression,
  isIanaTimeZone,
  CronScheduleParamsSchema,
  CronScheduleSchema,
} from './v1/cron-schedule.js';
export type { CronScheduleParams, CronSchedule } from './v1/cron-schedule.js';
export {
  DeploymentInitialEventSchema,
  CreateDeploymentRequestSchema,
  UpdateDeploymentRequestSchema,
  DeploymentStatusSchema,
  DeploymentErrorSchema,
  DeploymentPausedReasonSchema,
  DeploymentResourceSchema,
  DeploymentSchema,
  ListDeploymentsParamsSchema,
  DeploymentTriggerContextSchema,
  DeploymentRunSchema,
  ListDeploymentRunsParamsSchema,
} from './v1/deployments.js';
export type {
  DeploymentInitialEvent,
  CreateDeploymentRequest,
  UpdateDeploymentRequest,
  DeploymentStatus,
  DeploymentError,
  DeploymentPausedReason,
  Deployment,
  ListDeploymentsParams,
  DeploymentTriggerContext,
  DeploymentRun,
  ListDeploymentRunsParams,
} from './v1/deployments.js';
export {
  SkillSourceTypeSchema,
  CreateSkillFormSchema,
  SkillSchema,
  SkillVersionSchema,
  SkillDeletedSchema,
  SkillVersionDeletedSchema,
  ListSkillsParamsSchema,
  SkillFrontmatterSchema,
} from './v1/skills.js';
export type {
  SkillSourceType,
  CreateSkillForm,
  Skill,
  SkillVersion,
  ListSkillsParams,
  SkillFrontmatter,
} from './v1/skills.js';
export {
  UploadFileFormSchema,
  FileScopeSchema,
  FileMetadataSchema,
  FileDeletedSchema,
  ListFilesParamsSchema,
} from './v1/files.js';
export type { UploadFileForm, FileMetadata, ListFilesParams } from './v1/files.js';
export {
  CMA_ERROR_TYPES,
  CmaErrorTypeSchema,
  ErrorEnvelopeSchema,
  CMA_ERROR_TYPE_BY_CODE,
  toErrorEnvelope,
} from './http/error-envelope.js';
export type { CmaErrorType, ErrorEnvelope, ErrorEnvelopeInput } from './http/error-envelope.js';
export {
  ApiLoginRequestSchema,
  ApiUserSchema,
  LoginTenantSchema,
  ApiLoginResponseSchema,
  toApiLoginResponse,
} from './api/auth.js';
export type { ApiLoginRequest, ApiUser, ApiLoginResponse } from './api/auth.js';
export {
  ApiPermissionPolicySchema,
  ApiToolsetSchema,
  ApiMcpServerSchema,
  ApiSkillRefSchema,
  ApiAgentRequestSchema,
  ApiAgentSchema,
} from './api/agents.js';
export type {
  ApiPermissionPolicy,
  ApiToolConfig,
  ApiToolset,
  ApiMcpServer,
  ApiSkillRef,
  ApiAgentRequest,
  ApiAgent,
} from './api/agents.js';
export { toAgentToolName } from './api/tool-names.js';
export {
  API_TEAM_TOOLS_METADATA_KEY,
  TEAM_TOOL_NAMES,
  enabledTeamTools,
  isTeamToolName,
  teamToolsOf,
  type TeamToolName,
} from './api/team-tools.js';
export {
  API_TOOL_NAMES_METADATA_KEY,
  MAX_ITERS_METADATA_KEY,
  apiAgentToV1,
  apiAgentUpdateToV1,
  v1AgentToApi,
} from './api/agent-mapping.js';
export {
  ApiEnvironmentTypeSchema,
  ApiCreateEnvironmentRequestSchema,
  ApiUpdateEnvironmentRequestSchema,
  ApiEnvironmentSchema,
  apiEnvironmentToV1,
  apiEnvironmentUpdateToV1,
  v1EnvironmentToApi,
} from './api/environments.js';
export type {
  ApiEnvironmentType,
  ApiCreateEnvironmentRequest,
  ApiUpdateEnvironmentRequest,
  ApiEnvironment,
} from './api/environments.js';
export {
  ApiSessionAgentRefSchema,
  ApiAgentOverridesSchema,
  ApiCreateSessionRequestSchema,
  ApiListSessionsParamsSchema,
  ApiSessionSchema,
  apiSessionToV1,
  apiListSessionsToV1,
  v1SessionToApi,
} from './api/sessions.js';
export type { ApiCreateSessionRequest, ApiListSessionsParams, ApiSession } from './api/sessions.js';
export {
  ApiCreateDeploymentRequestSchema,
  ApiDeploymentRunSchema,
  ApiDeploymentSchema,
  ApiRunDeploymentRequestSchema,
  ApiTriggerTypeSchema,
  ApiUpdateDeploymentRequestSchema,
  apiDeploymentToV1,
  apiDeploymentUpdateToV1,
  apiTriggerType,
  textToInitialEvents,
  v1DeploymentRunToApi,
  v1DeploymentToApi,
} from './api/deployments.js';
export type {
  ApiCreateDeploymentRequest,
  ApiDeployment,
  ApiDeploymentRun,
  ApiRunDeploymentRequest,
  ApiTriggerType,
  ApiUpdateDeploymentRequest,
} from './api/deployments.js';
export {
  ApiMultiagentRunReplySchema,
  ApiMultiagentRunRequestSchema,
  ApiMultiagentRunSchema,
  multiagentReplyToApi,
  multiagentRunToApi,
} from './api/multiagent.js';
export type { ApiMultiagentRun, ApiMultiagentRunReply, ApiMultiagentRunRequest } from './api/multiagent.js';
export {
  ApiMemorySchema,
  ApiMemoryVersionSchema,
  ApiPutMemoryRequestSchema,
  ApiRedactMemoryRequestSchema,
  apiMemoryPathToV1,
  memoryToApi,
  memoryVersionToApi,
} from './api/memories.js';
export type {
  ApiMemory,
  ApiMemoryVersion,
  ApiPutMemoryRequest,
  ApiRedactMemoryRequest,
} from './api/memories.js';
export {
  ApiCreateCredentialRequestSchema,
  ApiCredentialSchema,
  ApiCredentialTypeSchema,
  ApiUpdateCredentialRequestSchema,
  apiCredentialToV1,
  apiCredentialUpdateToV1,
  credentialTarget,
  credentialToApi,
} from './api/vault-credentials.js';
export type {
  ApiCreateCredentialRequest,
  ApiCredential,
  ApiUpdateCredentialRequest,
} from './api/vault-credentials.js';
export {
  API_FILE_CONTENT_MAX_BYTES,
  ApiFileContentSchema,
  ApiFileSchema,
  ApiUploadFileRequestSchema,
  fileToApi,
} from './api/files.js';
export type { ApiFile, ApiFileContent, ApiUploadFileRequest } from './api/files.js';
export {
  ApiInboundEventSchema,
  ApiSendEventsRequestSchema,
  ApiSessionEventSchema,
  apiEventToV1,
  v1EventToApi,
} from './api/events.js';
export type { ApiInboundEvent, ApiSendEventsRequest, ApiSessionEvent } from './api/events.js';
export {
  WorkStateSchema,
  WorkDataSchema,
  WorkSchema,
  WorkSecretSchema,
  encodeWorkSecret,
  decodeWorkSecret,
  PollWorkParamsSchema,
  NO_HEARTBEAT,
  HeartbeatWorkParamsSchema,
  WorkHeartbeatSchema,
  StopWorkRequestSchema,
  UpdateWorkRequestSchema,
  WorkQueueStatsSchema,
} from './v1/environment-work.js';
export type {
  WorkState,
  WorkData,
  Work,
  WorkSecret,
  PollWorkParams,
  HeartbeatWorkParams,
  WorkHeartbeat,
  StopWorkRequest,
  UpdateWorkRequest,
  WorkQueueStats,
} from './v1/environment-work.js';
export {
  SessionThreadStatusSchema,
  SessionThreadSchema,
  ListSessionThreadsParamsSchema,
} from './v1/session-threads.js';
export type { SessionThreadStatus, SessionThread, ListSessionThreadsParams } from './v1/session-threads.js';
export {
  AccessListQuerySchema,
  AgentSharePermissionSchema,
  AgentShareSchema,
  ApiKeyInfoSchema,
  ApiKeyPermissionSchema,
  AuditEntrySchema,
  AuditListQuerySchema,
  ChangePasswordRequestSchema,
  ControlAccessSubjects,
  CreateApiKeyRequestSchema,
  CreatedApiKeySchema,
  CreateNamespaceRequestSchema,
  CreateUserRequestSchema,
  ManagedUserSchema,
  NamespaceInfoSchema,
  NewPasswordSchema,
  ShareAgentRequestSchema,
  SlugSchema,
  UpdateUserRequestSchema,
  UsernameSchema,
} from './nats/control-access-subjects.js';
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
  CreatedApiKey,
  CreateNamespaceRequest,
  CreateUserRequest,
  ManagedUser,
  NamespaceInfo,
  ShareAgentRequest,
  UpdateUserRequest,
} from './nats/control-access-subjects.js';
export {
  AddNamespaceMemberRequestSchema,
  ControlTenancySubjects,
  CreatedTenantSchema,
  CreateTenantRequestSchema,
  NamespaceMemberSchema,
  NamespaceRoleSchema,
  RemovedNamespaceMemberSchema,
  TenantInfoSchema,
  UpdateNamespaceMemberRequestSchema,
} from './nats/control-tenancy-subjects.js';
export type {
  AddNamespaceMemberRequest,
  CreatedTenant,
  CreateTenantRequest,
  NamespaceMember,
  NamespaceRole,
  RemovedNamespaceMember,
  TenantInfo,
  UpdateNamespaceMemberRequest,
} from './nats/control-tenancy-subjects.js';
export {
  toV1CreatedTenant,
  toV1Tenant,
  V1CreatedTenantSchema,
  V1TenantPageSchema,
  V1TenantSchema,
} from './v1/tenants.js';
export type { V1CreatedTenant, V1Tenant } from './v1/tenants.js';
export {
  HandsStatusSchema,
  PendingToolCallSchema,
  WorkerAuthSubjects,
  WorkPrincipalSchema,
  WorkSubjects,
} from './nats/work-subjects.js';
export type { HandsStatus, PendingToolCall, WorkPrincipal } from './nats/work-subjects.js';
export {
  ClusterHandsHeartbeatSchema,
  HandsHeartbeatKeys,
  HandsWorkerSchema,
} from './hands/hands-heartbeat.js';
export type { ClusterHandsHeartbeat, HandsWorker } from './hands/hands-heartbeat.js';
export { SkillFileSchema, SkillFileSubjects, SkillVersionFilesSchema } from './nats/skill-files-subjects.js';
export { McpCredentialSubjects, McpServerCredentialSchema } from './nats/mcp-credential-subjects.js';
export {
  MemoryWriteBackSchema,
  RuntimeSessionResourceSchema,
  SessionResourceSubjects,
} from './nats/session-resource-subjects.js';
export type { MemoryWriteBack } from './nats/session-resource-subjects.js';
export type { RuntimeSessionResource } from './nats/session-resource-subjects.js';
export type { McpServerCredential } from './nats/mcp-credential-subjects.js';
export {
  EnvironmentCredentialSubjects,
  SandboxCredentialSchema,
} from './nats/environment-credential-subjects.js';
export type { SandboxCredential } from './nats/environment-credential-subjects.js';
export type { SkillFile, SkillVersionFiles } from './nats/skill-files-subjects.js';
export {
  ApiAckWorkRequestSchema,
  ApiHeartbeatWorkRequestSchema,
  ApiListWorkQuerySchema,
  ApiPendingToolSchema,
  ApiPollWorkQuerySchema,
  ApiSessionSkillSchema,
  ApiSessionSkillsSchema,
  ApiSkillResourceSchema,
  ApiStopWorkRequestSchema,
  ApiToolResultSchema,
  ApiToolResultsRequestSchema,
  ApiUpdateWorkRequestSchema,
  ApiWorkHeartbeatSchema,
  ApiWorkItemSchema,
  ApiWorkQueueStatsSchema,
  pendingToolToApi,
  skillFilesToApi,
  v1HeartbeatToApi,
  v1WorkStatsToApi,
  v1WorkToApi,
} from './api/worker.js';
export type {
  ApiAckWorkRequest,
  ApiHeartbeatWorkRequest,
  ApiListWorkQuery,
  ApiPendingTool,
  ApiPollWorkQuery,
  ApiSessionSkill,
  ApiSessionSkills,
  ApiStopWorkRequest,
  ApiToolResult,
  ApiToolResultsRequest,
  ApiUpdateWorkRequest,
  ApiWorkHeartbeat,
  ApiWorkItem,
  ApiWorkQueueStats,
} from './api/worker.js';
export { ControlWorkspaceSubjects } from './nats/control-workspace-subjects.js';
export {
  AGENT_WORKSPACE_MAX_FILE_BYTES,
  AGENT_WORKSPACE_MAX_SKILL_RESOURCES,
  AGENT_WORKSPACE_MAX_TOTAL_BYTES,
  ApiWorkspaceDeletedSchema,
  ApiWorkspaceEntryListSchema,
  ApiWorkspaceEntrySchema,
  ApiWorkspaceFileQuerySchema,
  ApiWorkspaceFileSchema,
  ApiWorkspaceFileWriteSchema,
  ApiWorkspaceMoveSchema,
  ApiWorkspaceSkillListSchema,
  ApiWorkspaceSkillPutSchema,
  ApiWorkspaceSkillSchema,
  ApiWorkspaceSkillSummarySchema,
  ApiWorkspaceSubagentListSchema,
  ApiWorkspaceSubagentPutSchema,
  ApiWorkspaceSubagentSchema,
  ApiWorkspaceSummarySchema,
  WorkspaceItemNameSchema,
} from './api/agent-workspace.js';
export type {
  ApiWorkspaceDeleted,
  ApiWorkspaceEntry,
  ApiWorkspaceEntryList,
  ApiWorkspaceFile,
  ApiWorkspaceFileQuery,
  ApiWorkspaceFileWrite,
  ApiWorkspaceMove,
  ApiWorkspaceSkill,
  ApiWorkspaceSkillList,
  ApiWorkspaceSkillPut,
  ApiWorkspaceSubagent,
  ApiWorkspaceSubagentList,
  ApiWorkspaceSubagentPut,
  ApiWorkspaceSummary,
} from './api/agent-workspace.js';
export { fromMicros, toMicros, toUsageSnapshot } from './v1/list-cost.js';
export {
  USAGE_GROUP_KEYS,
  UsageQuerySchema,
  UsageReportSchema,
  UsageRowSchema,
  UsageSubjects,
  type UsageQuery,
  type UsageReport,
  type UsageRow,
} from './v1/usage.js';
