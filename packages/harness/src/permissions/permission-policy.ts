import type { HarnessTool, ToolPermission } from '../tools/tool.js';
import type { EvaluatedPermission } from '../loop/harness-events.js';

/** Permission configuration: per tool name and per toolset ("builtin", "mcp:github", "mcp:*", ...). */
export interface PermissionPolicy {
  tools?: Record<string, ToolPermission>;
  toolsets?: Record<string, ToolPermission>;
}

/**
 * Precedence: per-tool policy > toolset default (exact, then "mcp:*" style wildcard) >
 * the tool's own defaultPermission > always_allow.
 */
export function resolvePermission(
  tool: Pick<HarnessTool, 'name' | 'toolset' | 'defaultPermission'>,
  policy: PermissionPolicy = {},
): ToolPermission {
  const byTool = policy.tools?.[tool.name];
  if (byTool) return byTool;
  const sets = policy.toolsets ?? {};
  const exact = sets[tool.toolset];
  if (exact) return exact;
  const prefix = tool.toolset.split(':')[0];
  const wildcard = prefix !== tool.toolset ? sets[`${prefix}:*`] : undefined;
  if (wildcard) return wildcard;
  return tool.defaultPermission ?? 'always_allow';
}

export function toEvaluated(permission: ToolPermission): EvaluatedPermission {
  if (permission === 'always_allow') return 'allow';
  return permission === 'deny' ? 'deny' : 'ask';
}
