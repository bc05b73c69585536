import type {
  AgentTool,
  AgentToolConfig,
  AgentToolParams,
  PermissionPolicy,
  ToolsetDefaultConfig,
  ToolsetDefaultConfigParams,
} from './agent-tools.js';

/** CMA defaults: built-in tools run without asking; MCP tools ask first, since their effects are unknown. */
const DEFAULT_AGENT_TOOLSET_POLICY: PermissionPolicy = { type: 'always_allow' };
const DEFAULT_MCP_TOOLSET_POLICY: PermissionPolicy = { type: 'always_ask' };

function resolveDefault(
  params: ToolsetDefaultConfigParams | null | undefined,
  policy: PermissionPolicy,
): ToolsetDefaultConfig {
  return { enabled: params?.enabled ?? true, permission_policy: params?.permission_policy ?? policy };
}

/** Fills every default of a `tools[]` request so the stored agent says exactly what applies. */
export function normalizeAgentTools(tools: readonly AgentToolParams[]): AgentTool[] {
  return tools.map((tool): AgentTool => {
    if (tool.type === 'custom') return tool;
    if (tool.type === 'memory_toolset_20261030') {
      const def = resolveDefault(tool.default_config, DEFAULT_AGENT_TOOLSET_POLICY);
      return {
        type: 'memory_toolset_20261030',
        default_config: def,
        configs: (tool.configs ?? []).map((c) => ({
          name: c.name,
          type: c.name,
          enabled: c.enabled ?? def.enabled,
          permission_policy: c.permission_policy ?? def.permission_policy,
        })),
      };
    }
    if (tool.type === 'mcp_toolset') {
      const def = resolveDefault(tool.default_config, DEFAULT_MCP_TOOLSET_POLICY);
      return {
        type: 'mcp_toolset',
        mcp_server_name: tool.mcp_server_name,
        default_config: def,
        configs: (tool.configs ?? []).map((c) => ({
          name: c.name,
          enabled: c.enabled ?? def.enabled,
          permission_policy: c.permission_policy ?? def.permission_policy,
        })),
      };
    }
    const def = resolveDefault(tool.default_config, DEFAULT_AGENT_TOOLSET_POLICY);
    return {
      type: 'agent_toolset_20260401',
      default_config: def,
      configs: (tool.configs ?? []).map((c) => {
        const config: AgentToolConfig = {
          name: c.name,
          type: c.name,
          enabled: c.enabled ?? def.enabled,
          permission_policy: c.permission_policy ?? def.permission_policy,
        };
        if (c.allowed_domains) config.allowed_domains = c.allowed_domains;
        if (c.blocked_domains) config.blocked_domains = c.blocked_domains;
        if (c.max_content_tokens !== undefined) config.max_content_tokens = c.max_content_tokens;
        if (c.url_sources !== undefined) config.url_sources = c.url_sources;
        if (c.user_location !== undefined) config.user_location = c.user_location;
        return config;
      }),
    };
  });
}
