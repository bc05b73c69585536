// The /api surface (AgentScope compatible): its schemas and the mappings to and from /v1.
export { ApiAgentRequestSchema, ApiAgentSchema } from './agents/api-agents.js';
export type { ApiAgentRequest } from './agents/api-agents.js';
export { apiAgentToV1, apiAgentUpdateToV1, v1AgentToApi } from './agents/api-agent-mapping.js';
export { teamToolsOf } from './agents/api-team-tools.js';
export type { TeamToolName } from './agents/api-team-tools.js';
export {
  AGENT_WORKSPACE_MAX_FILE_BYTES,
  AGENT_WORKSPACE_MAX_SKILL_RESOURCES,
  AGENT_WORKSPACE_MAX_TOTAL_BYTES,
  ApiWorkspaceDeletedSchema,
  ApiWorkspaceEntrySchema,
  ApiWorkspaceFileQuerySchema,
  ApiWorkspaceFileSchema,
  ApiWorkspaceFileWriteSchema,
  ApiWorkspaceMoveSchema,
  ApiWorkspaceSkillPutSchema,
  ApiWorkspaceSkillSchema,
  ApiWorkspaceSkillSummarySchema,
  ApiWorkspaceSubagentPutSchema,
  ApiWorkspaceSubagentSchema,
  ApiWorkspaceSummarySchema,
  WorkspaceItemNameSchema,
} from './agents/api-agent-workspace.js';
export type {
  ApiWorkspaceDeleted,
  ApiWorkspaceEntry,
  ApiWorkspaceEntryList,
  ApiWorkspaceFile,
  ApiWorkspaceSkill,
  ApiWorkspaceSkillList,
  ApiWorkspaceSkillPut,
  ApiWorkspaceSubagent,
  ApiWorkspaceSubagentList,
  ApiWorkspaceSubagentPut,
  ApiWorkspaceSummary,
} from './agents/api-agent-workspace.js';
export {
  ApiCreateEnvironmentRequestSchema,
  ApiEnvironmentSchema,
  ApiUpdateEnvironmentRequestSchema,
  apiEnvironmentToV1,
  apiEnvironmentUpdateToV1,
  v1EnvironmentToApi,
} from './environments/api-environments.js';
export type {
  ApiCreateEnvironmentRequest,
  ApiUpdateEnvironmentRequest,
} from './environments/api-environments.js';
export {
  ApiCreateSessionRequestSchema,
  ApiListSessionsParamsSchema,
  ApiSessionSchema,
  apiListSessionsToV1,
  apiSessionToV1,
  v1SessionToApi,
} from './sessions/api-sessions.js';
export type { ApiCreateSessionRequest, ApiListSessionsParams } from './sessions/api-sessions.js';
export {
  ApiSendEventsRequestSchema,
  ApiSessionEventSchema,
  apiEventToV1,
  v1EventToApi,
} from './session-events/api-events.js';
export type { ApiSendEventsRequest } from './session-events/api-events.js';
export {
  ApiMemorySchema,
  ApiMemoryVersionSchema,
  ApiPutMemoryRequestSchema,
  ApiRedactMemoryRequestSchema,
  apiMemoryPathToV1,
  memoryToApi,
  memoryVersionToApi,
} from './memory-stores/api-memories.js';
export type { ApiPutMemoryRequest, ApiRedactMemoryRequest } from './memory-stores/api-memories.js';
export {
  ApiCreateCredentialRequestSchema,
  ApiCredentialSchema,
  ApiUpdateCredentialRequestSchema,
  apiCredentialToV1,
  apiCredentialUpdateToV1,
  credentialTarget,
  credentialToApi,
} from './vaults/api-vault-credentials.js';
export type {
  ApiCreateCredentialRequest,
  ApiUpdateCredentialRequest,
} from './vaults/api-vault-credentials.js';
export {
  API_FILE_CONTENT_MAX_BYTES,
  ApiFileContentSchema,
  ApiFileSchema,
  ApiUploadFileRequestSchema,
  fileToApi,
} from './files/api-files.js';
export type { ApiUploadFileRequest } from './files/api-files.js';
export {
  ApiCreateDeploymentRequestSchema,
  ApiDeploymentRunSchema,
  ApiDeploymentSchema,
  ApiRunDeploymentRequestSchema,
  ApiUpdateDeploymentRequestSchema,
  apiDeploymentToV1,
  apiDeploymentUpdateToV1,
  textToInitialEvents,
  v1DeploymentRunToApi,
  v1DeploymentToApi,
} from './deployments/api-deployments.js';
export type {
  ApiCreateDeploymentRequest,
  ApiRunDeploymentRequest,
  ApiUpdateDeploymentRequest,
} from './deployments/api-deployments.js';
export {
  ApiMultiagentRunReplySchema,
  ApiMultiagentRunRequestSchema,
  ApiMultiagentRunSchema,
  MULTIAGENT_SYNC_MAX_TIMEOUT_SECONDS,
  multiagentReplyToApi,
  multiagentRunToApi,
} from './multiagent-runs/api-multiagent-runs.js';
export type { ApiMultiagentRunRequest } from './multiagent-runs/api-multiagent-runs.js';
export {
  ApiListReplaysParamsSchema,
  apiListReplaysToV1,
  replayBatchToApi,
  replayToApi,
} from './replays/api-replays.js';
export type { ApiListReplaysParams } from './replays/api-replays.js';
export { LoginTenantSchema } from './tenancy/api-auth.js';
export {
  ApiAckWorkRequestSchema,
  ApiHeartbeatWorkRequestSchema,
  ApiListWorkQuerySchema,
  ApiPendingToolSchema,
  ApiPollWorkQuerySchema,
  ApiSessionSkillsSchema,
  ApiStopWorkRequestSchema,
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
} from './work/api-worker.js';
export type {
  ApiAckWorkRequest,
  ApiHeartbeatWorkRequest,
  ApiListWorkQuery,
  ApiPollWorkQuery,
  ApiSessionSkill,
  ApiStopWorkRequest,
  ApiToolResult,
  ApiToolResultsRequest,
  ApiUpdateWorkRequest,
} from './work/api-worker.js';
