export { createHarness, isTransientOutage } from './harness.js';
export type { Harness } from './harness.js';
export type { RunInput, SuppliedToolResult } from './loop/harness-config.js';
export { openToolCalls, resumesWithoutWaiting } from './recovery/resume-plan.js';
export type { ResumeFacts } from './recovery/resume-plan.js';
export type { HarnessHooks } from './loop/harness-hooks.js';
export type { HarnessEvent, PersistedHarnessEvent, RunEndEvent } from './loop/harness-events.js';
export { isPersistedEvent } from './loop/harness-events.js';
export type { PermissionPolicy } from './permissions/permission-policy.js';
export type { ExpectedCall, ToolExecutor, ToolInvocation } from './tools/tool-executor.js';
export type { FileMount, HarnessTool, ToolContext, ToolOutcome } from './tools/tool.js';
export { inProcessToolExecutor } from './tools/tool-executor.js';
export { customTool } from './tools/custom-tool.js';
export { inputText } from './tools/tool-input.js';
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
} from './tools/agent-toolset/index.js';
export type {
  AgentToolsetName,
  AgentShell,
  ShellRun,
  ShellRunResult,
  WebSearchOptions,
} from './tools/agent-toolset/index.js';
export { DEFAULT_PLAN_DIR } from './plan/plan-write.tool.js';
export { ScriptedModel } from './scripted/scripted-model.js';
export type {
  ChatMessage,
  ContentBlock,
  ModelPort,
  ModelRequest,
  ModelStreamEvent,
  ToolCall,
} from './model/model-port.js';
export { resolveModel } from './model/model.resolver.js';
export {
  assertModelServable,
  modelProvidersFromEnv,
  unservableModelError,
} from './model/model-availability.js';
export type { ModelProvidersConfig } from './model/model-providers.config.js';
export { McpManager } from './mcp/mcp.manager.js';
export { McpConnection } from './mcp/mcp-connection.js';
export type { StdioBridge, StdioBridgeListener } from './mcp/stdio-bridge.transport.js';
export type {
  McpConnectionConfig,
  McpStdioConnectionConfig,
  McpRemoteConnectionConfig,
  McpFetch,
} from './mcp/mcp-connection.config.js';
export { toMcpConnectionConfigs } from './mcp/mcp-tools-json.mapper.js';
export type { ToolsJsonMcpServer } from './mcp/mcp-tools-json.mapper.js';
export { mcpToolName, toHarnessTool as mcpToolToHarnessTool } from './mcp/mcp-tool.adapter.js';
export { TURN_PRELUDE_READS } from './context/turn-prelude.js';
export { evictLargeToolResult, LARGE_TOOL_RESULTS_DIR } from './context/tool-result-eviction.js';
export { COMPACTION_SYSTEM_PROMPT } from './context/compaction-prompt.js';
export { renderTranscript } from './context/transcript-render.js';
export { loadSkills } from './skills/skill-loader.js';
export { renderAvailableSkills } from './skills/available-skills.renderer.js';
export { createLoadSkillTool } from './skills/load-skill.tool.js';
export type { SkillSource, WarnLogger } from './skills/skill.types.js';
export { loadSubagentSpecs } from './subagents/subagent-loader.js';
export type { SubagentSpec } from './subagents/subagent-spec.js';
export { consolidateMemory } from './memory/memory-consolidation.js';
export { pruneDailyMemory } from './memory/memory-retention.js';
export { createSessionSearchTool } from './memory/session-search.tool.js';
export { collectText } from './memory/collect-text.js';
export type { SessionLogLine, SessionLogStore } from './transcript/session-log-store.js';
export { errorOutcome, textOutcome } from './tools/tool-executor.js';
export { EgressGuard, guarded } from './tools/egress/egress-guard.js';
export { readFileTool } from './tools/builtin/file-read.tools.js';
