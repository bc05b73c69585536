import type { AgentTool } from '@agentry/contracts';
import type { PermissionPolicy } from '@agentry/harness';

/** CMA's agent_toolset names → the harness's built-in tool names. */
const HARNESS_NAME: Record<string, string> = {
  bash: 'execute',
  read: 'read_file',
  write: 'write_file',
  edit: 'edit_file',
  glob: 'glob_files',
  grep: 'grep_files',
  web_fetch: 'web_fetch',
};

type Policy = 'always_allow' | 'always_ask' | 'deny';

function permissionOf(enabled: boolean, policy: { type: string }): Policy {
  if (!enabled) return 'deny';
  return policy.type === 'always_ask' ? 'always_ask' : 'always_allow';
}

/** Turns an agent's toolset configuration into the harness permission policy (disabled → deny). */
export function toPermissionPolicy(tools: AgentTool[]): PermissionPolicy {
  const policy: Required<PermissionPolicy> = { tools: {}, toolsets: {} };
  for (const tool of tools) {
    if (tool.type === 'agent_toolset_20260401') {
      policy.toolsets.builtin = permissionOf(tool.default_config.enabled, tool.default_config.permission_policy);
      for (const config of tool.configs) {
        const permission = permissionOf(config.enabled, config.permission_policy);
        // Under both names: self-hosted sessions offer the tools by their CMA names, others by the harness's.
        policy.tools[HARNESS_NAME[config.name] ?? config.name] = permission;
        policy.tools[config.name] = permission;
      }
    } else if (tool.type === 'mcp_toolset') {
      policy.toolsets[`mcp:${tool.mcp_server_name}`] = permissionOf(tool.default_config.enabled, tool.default_config.permission_policy);
      for (const config of tool.configs) {
        policy.tools[`mcp__${tool.mcp_server_name}__${config.name}`] = permissionOf(config.enabled, config.permission_policy);
      }
    }
  }
  return policy;
}
