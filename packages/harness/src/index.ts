export { createHarness, isTransientOutage } from './harness.js';
export type { Harness } from './harness.js';
export { HarnessBuilder } from './loop/harness-builder.js';
export type {
  HarnessConfig,
  RunInput,
  RunContext,
  Approval,
  CutOffCall,
  SuppliedToolResult,
  TokenBudgets,
} from './loop/harness-config.js';
export { openToolCalls, resumesWithoutWaiting } from './recovery/resume-plan.js';
export type { ResumeFacts } from './recovery/resume-plan.js';
export type { HarnessHooks, HookContext } from './loop/harness-hooks.js';
export type {
  HarnessEvent,
  PersistedHarnessEvent,
  RunEndEvent,
  StopReason as RunStopReason,
  EvaluatedPermission,
  UsageTotals,
  AgentMessageEvent,
  AgentThinkingEvent,
  AgentToolUseEvent,
  AgentToolResultEvent,
  AgentMcpToolUseEvent,
  AgentMcpToolResultEvent,
  AgentCustomToolUseEvent,
  ThreadContextCompactedEvent,
  ModelRequestStartEvent,
  ModelRequestEndEvent,
  ModelRetryEvent,
  TextDeltaEvent,
  ThinkingDeltaEvent,
  ToolInputDeltaEvent,
} from './loop/harness-events.js';
export { isPersistedEvent } from './loop/harness-events.js';
export type { Clock, Logger, IdGenerator } from './loop/ports.js';
export { systemClock, silentLogger, createEventIdGenerator } from './loop/ports.js';
export type { PermissionPolicy } from './permissions/permission-policy.js';
export { resolvePermission } from './permissions/permission-policy.js';
export type { ToolExecutor, ToolInvocation } from './tools/tool-executor.js';
export type { FileMount, HarnessTool, ToolContext, ToolOutcome, ToolPermission } from './tools/tool.js';
export { inProcessToolExecutor } from './tools/tool-executor.js';
export { customTool } from './tools/custom-tool.js';
export { inputText } from './tools/tool-input.js';
export type { CustomToolDefinition } from './tools/custom-tool.js';
export type { ToolsConfig, McpServerConfig } from './tools/tools-config.js';
export { loadToolsConfig, mergeToolsConfig, filterTools, substituteEnv } from './tools/tools-config.js';
export {
  readFileTool,
  listFilesTool,
  grepFilesTool,
  globFilesTool,
} from './tools/builtin/file-read.tools.js';
export { writeFileTool, editFileTool } from './tools/builtin/file-write.tools.js';
export { FILESYSTEM_TOOLS } from './tools/builtin/filesystem-tools.js';
export { createExecuteTool } from './tools/builtin/execute.tool.js';
export { createWebFetchTool } from './tools/builtin/web-fetch.tool.js';
export { blockedAddressReason } from './tools/egress/blocked-address.js';
export { hostAllowed } from './tools/egress/allowed-hosts.js';
export type { WebFetchOptions } from './tools/builtin/web-fetch.tool.js';
export {
  AGENT_TOOLSET_SCHEMAS,
  AGENT_WORKSPACE_TOOL_NAMES,
  AGENT_FILE_TOOLS,
  agentToolSchema,
  createAgentBashTool,
  unavailableBashTool,
  createAgentWebFetchTool,
  createAgentWebSearchTool,
  WORKSPACE_MOUNT,
  toWorkspacePath,
  resolveToolPath,
} from './tools/agent-toolset/index.js';
export type {
  AgentToolSchema,
  AgentToolsetName,
  AgentShell,
  AgentBashOptions,
  ShellRun,
  ShellRunResult,
  WebSearchOptions,
} from './tools/agent-toolset/index.js';
export { createPlanWriteTool, DEFAULT_PLAN_DIR } from './plan/plan-write.tool.js';
export type { PlanStore } from './plan/plan-write.tool.js';
export { OffloadManager } from './offload/offload-manager.js';
export type { OffloadedResult } from './offload/offload-manager.js';
export { SessionTranscript } from './transcript/session-transcript.js';
export type { TranscriptEntry } from './transcript/session-transcript.js';
export { ScriptedModel } from './scripted/scripted-model.js';
export type { ScriptedModelOptions } from './scripted/scripted-model.js';
export { parseScript } from './scripted/script-types.js';
export type { Script, ScriptTurn, ScriptStep, ScriptToolCall } from './scripted/script-types.js';
export type {
  ChatMessage,
  ContentBlock,
  ModelPort,
  ModelRequest,
  ModelStreamEvent,
  StopReason,
  ToolCall,
  ToolDefinition,
  Usage,
} from './model/model-port.js';
export { resolveModel, parseModelId } from './model/model.resolver.js';
export {
  assertModelServable,
  configuredProviders,
  modelProvidersFromEnv,
  unservableModelError,
} from './model/model-availability.js';
export type { ModelProviderEnv } from './model/model-availability.js';
export { BUILTIN_MODEL_PROVIDERS } from './model/model-providers.config.js';
export type {
  ModelProviderConfig,
  ModelProvidersConfig,
  ScriptedModelFactoryOptions,
} from './model/model-providers.config.js';
export { ModelRetryPolicy } from './model/model-retry.policy.js';
export type { ModelRetryOptions } from './model/model-retry.policy.js';
export { OpenAiChatModel } from './model/openai/openai-chat.model.js';
export type { OpenAiChatModelOptions } from './model/openai/openai-chat.model.js';
export { AnthropicMessagesModel } from './model/anthropic/anthropic-messages.model.js';
export type { AnthropicMessagesModelOptions } from './model/anthropic/anthropic-messages.model.js';
export { McpManager } from './mcp/mcp.manager.js';
export type { McpManagerOptions, McpToolListing } from './mcp/mcp.manager.js';
export { McpConnection } from './mcp/mcp-connection.js';
export { StdioBridgeTransport } from './mcp/stdio-bridge.transport.js';
export type { StdioBridge, StdioBridgeFactory, StdioBridgeListener } from './mcp/stdio-bridge.transport.js';
export { validateMcpConnectionConfigs } from './mcp/mcp-connection.config.js';
export type {
  McpConnectionConfig,
  McpStdioConnectionConfig,
  McpRemoteConnectionConfig,
  McpFetch,
} from './mcp/mcp-connection.config.js';
export { toMcpConnectionConfigs } from './mcp/mcp-tools-json.mapper.js';
export { McpToolsProvider } from './mcp/mcp-tools.provider.js';
export type { McpToolsProviderOptions } from './mcp/mcp-tools.provider.js';
export type { ToolsJsonMcpServer } from './mcp/mcp-tools-json.mapper.js';
export { mcpToolName, toHarnessTool as mcpToolToHarnessTool } from './mcp/mcp-tool.adapter.js';
export type { McpToolOptions } from './mcp/mcp-tool.adapter.js';
export { toToolOutcome as mcpResultToToolOutcome } from './mcp/mcp-result.mapper.js';
export { buildWorkspaceContext, DEFAULT_CONTEXT_BUDGET_TOKENS } from './context/workspace-context.js';
export { TURN_PRELUDE_READS } from './context/turn-prelude.js';
export type { WorkspaceContextOptions } from './context/workspace-context.js';
export {
  estimateTokens,
  estimateMessageTokens,
  estimateConversationTokens,
} from './context/token-estimate.js';
export type { TokenCounter } from './context/token-estimate.js';
export {
  evictLargeToolResult,
  evictedResultPath,
  EVICTION_EXCLUDED_TOOLS,
  DEFAULT_EVICTION_THRESHOLD_CHARS,
  DEFAULT_EVICTION_PREVIEW_CHARS,
  LARGE_TOOL_RESULTS_DIR,
} from './context/tool-result-eviction.js';
export type { EvictionOptions } from './context/tool-result-eviction.js';
export {
  compactIfNeeded,
  emergencyCompact,
  needsCompaction,
  FALLBACK_CONTEXT_WINDOW,
} from './context/conversation-compactor.js';
export type { CompactionOptions, CompactionResult } from './context/conversation-compactor.js';
export { safeCutPoints } from './context/conversation-boundaries.js';
export { COMPACTION_SYSTEM_PROMPT } from './context/compaction-prompt.js';
export { renderTranscript } from './context/transcript-render.js';
export { loadSkills } from './skills/skill-loader.js';
export { renderAvailableSkills } from './skills/available-skills.renderer.js';
export { createLoadSkillTool, LOAD_SKILL_TOOL_NAME } from './skills/load-skill.tool.js';
export { parseFrontMatter } from '@agentry/workspace';
export { SKILL_LAYERS } from './skills/skill.types.js';
export type { Skill, SkillLayer, SkillSource, WarnLogger } from './skills/skill.types.js';
export { SubagentRegistry } from './subagents/subagent-registry.js';
export { loadSubagentSpecs } from './subagents/subagent-loader.js';
export { SubagentTaskRegistry } from './subagents/subagent-task-registry.js';
export type {
  SubagentTaskRecord,
  SubagentTaskStatus,
  StartTaskParams,
} from './subagents/subagent-task-registry.js';
export { createSubagentTools } from './subagents/subagent-tools.js';
export { createAgentSpawnTool, SUBAGENT_WORKSPACE_DIR } from './subagents/agent-spawn.tool.js';
export type { SubagentToolDeps } from './subagents/agent-spawn.tool.js';
export { createTaskTools } from './subagents/task.tools.js';
export { SubRootFs } from './subagents/sub-root-fs.js';
export { WorkspaceTaskStore } from './subagents/workspace-task.store.js';
export { DEFAULT_SUBAGENT_MAX_ITERS } from './subagents/subagent-spec.js';
export type { SubagentSpec, SubagentDeclaration, SubagentWorkspaceMode } from './subagents/subagent-spec.js';
export { withFinalText } from './subagents/subagent-runner.js';
export type { ChildRunner, ChildRunContext, ChildThreadEvent } from './subagents/subagent-runner.js';
export { flushMemory, NO_REPLY, MEMORY_FLUSH_SYSTEM_PROMPT } from './memory/memory-flush.js';
export type { FlushMemoryParams, FlushMemoryResult } from './memory/memory-flush.js';
export { consolidateMemory, DEFAULT_CONSOLIDATION_INTERVAL_MS } from './memory/memory-consolidation.js';
export type { ConsolidateMemoryParams, ConsolidationOutcome } from './memory/memory-consolidation.js';
export { CONSOLIDATION_STATE_PATH } from './memory/consolidation-state.js';
export { pruneDailyMemory } from './memory/memory-retention.js';
export { createMemoryTools } from './memory/memory.tools.js';
export { createSessionSearchTool } from './memory/session-search.tool.js';
export { collectText } from './memory/collect-text.js';
export type { SessionLogLine, SessionLogStore } from './transcript/session-log-store.js';
export { WorkspaceSessionLogs } from './transcript/workspace-session-logs.js';
export { dailyLedgerPath } from './memory/memory-clock.js';
export type { MemoryClock } from './memory/memory-clock.js';
export { scriptedModelFactory } from './scripted/scripted-model.factory.js';
export { errorOutcome, textOutcome } from './tools/tool-executor.js';
export type { FinishedOutcome } from './tools/tool-executor.js';
export { EgressGuard, guarded } from './tools/egress/egress-guard.js';
export type { EgressGuardOptions } from './tools/egress/egress-guard.js';
