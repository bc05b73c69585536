import type { AgentTool } from '@agentry/contracts';
import type { PermissionPolicy } from '@agentry/harness';

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
      policy.toolsets.builtin = permissionOf(
        tool.default_config.enabled,
        tool.default_config.permission_policy,
      );
      for (const config of tool.configs) {
        // Every environment type offers the toolset under its CMA names, so a config names the tool itself.
        policy.tools[config.name] = permissionOf(config.enabled, config.permission_policy);
      }
    } else if (tool.type === 'mcp_toolset') {
      policy.toolsets[`mcp:${tool.mcp_server_name}`] = permissionOf(
        tool.default_config.enabled,
        tool.default_config.permission_policy,
      );
      for (const config of tool.configs) {
        policy.tools[`mcp__${tool.mcp_server_name}__${config.name}`] = permissionOf(
          config.enabled,
          config.permission_policy,
        );
      }
    }
  }
  return policy;
}
