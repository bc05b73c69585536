import { AGENT_TOOLSET_SCHEMAS, AGENT_WORKSPACE_TOOL_NAMES, type HarnessTool } from '@agentry/harness';

/** The file and shell tools a self-hosted worker runs (the official SDK's `agent_toolset_20260401`). */
export const SELF_HOSTED_TOOL_NAMES: ReadonlySet<string> = AGENT_WORKSPACE_TOOL_NAMES;

/**
 * Schema-only tools: calling one commits the `agent.tool_use` and suspends the call (`pending`); the
 * worker's `user.tool_result` supplies the outcome in a later run. The Brain holds schemas only.
 */
export function selfHostedTools(): HarnessTool[] {
  return AGENT_TOOLSET_SCHEMAS.filter((s) => SELF_HOSTED_TOOL_NAMES.has(s.name)).map((schema) => ({
    ...schema,
    toolset: 'builtin',
    execute: () => Promise.resolve({ status: 'pending' as const }),
  }));
}
