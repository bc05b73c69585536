import { emergencyCompact, compactIfNeeded } from '../context/conversation-compactor.js';
import { evictLargeToolResult } from '../context/tool-result-eviction.js';
import { buildWorkspaceContext } from '../context/workspace-context.js';
import { renderAvailableSkills } from '../skills/available-skills.renderer.js';
import { createLoadSkillTool } from '../skills/load-skill.tool.js';
import { loadSkills } from '../skills/skill-loader.js';
import type { Harness } from '../harness.js';
import { flushMemory } from '../memory/memory-flush.js';
import { createMemoryTools } from '../memory/memory.tools.js';
import { createSessionSearchTool } from '../memory/session-search.tool.js';
import { WorkspaceSessionLogs } from '../transcript/workspace-session-logs.js';
import type { HarnessConfig } from './harness-config.js';
import type { HarnessHooks } from './harness-hooks.js';
import type { Clock, Logger } from './ports.js';
import type { McpWiring } from './mcp-wiring.js';
import { subagentToolsHook } from './subagent-wiring.js';

/**
 * The seed's middleware as default hooks: workspace context, workspace skills, memory tools and flush,
 * sub-agents, MCP servers from tools.json, tool-result eviction and compaction. A hook given in config replaces its default;
 * disable* switches skip the hook entirely.
 */
export function defaultHooks(
  config: HarnessConfig,
  logger: Logger,
  clock: Clock,
  mcp: McpWiring,
  createChild: (config: HarnessConfig) => Harness,
): HarnessHooks {
  const defaults: HarnessHooks = {
    workspaceContext: ({ fs }) => buildWorkspaceContext(fs, { memoryTools: !config.disableMemoryTools }),
    async skills({ fs }) {
      const skills = await loadSkills([{ layer: 'workspace', fs, root: 'skills' }], { logger });
      if (skills.length === 0) return { prompt: '', tools: [] };
      return { prompt: renderAvailableSkills(skills), tools: [createLoadSkillTool(skills)] };
    },
    memoryTools: ({ fs }) =>
      Promise.resolve([
        ...createMemoryTools(fs, { clock }),
        createSessionSearchTool(config.sessionLogs ?? new WorkspaceSessionLogs(fs)),
      ]),
    async flushMemory({ fs, model, signal }, conversation) {
      // The turn just finished: from its opening user message on.
      const start = Math.max(
        0,
        conversation.findLastIndex((m) => m.role === 'user'),
      );
      await flushMemory({ fs, model, conversationSlice: conversation.slice(start), clock, signal });
    },
    subagentTools: subagentToolsHook(config, logger, createChild),
    mcpTools: (servers) => mcp.tools(servers),
    evictToolResult: ({ fs }, result) => evictLargeToolResult(fs, result),
    compact: ({ model, signal }, conversation, { emergency }) =>
      emergency
        ? emergencyCompact(conversation, { model, signal })
        : compactIfNeeded(conversation, { model, signal }),
  };
  return { ...defaults, ...config.hooks };
}
