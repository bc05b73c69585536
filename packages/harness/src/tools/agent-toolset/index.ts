export {
  AGENT_TOOLSET_SCHEMAS,
  AGENT_WORKSPACE_TOOL_NAMES,
  agentToolSchema,
} from './agent-toolset.schemas.js';
export type { AgentToolsetName } from './agent-toolset.schemas.js';
export { AGENT_FILE_TOOLS } from './agent-file.tools.js';
export { createAgentBashTool, unavailableBashTool } from './agent-bash.tool.js';
export type { AgentShell, ShellRun, ShellRunResult } from './agent-bash.tool.js';
export { createAgentWebFetchTool, createAgentWebSearchTool } from './agent-web.tools.js';
export type { WebSearchOptions } from './agent-web.tools.js';
export { WORKSPACE_MOUNT } from './workspace-path.js';
