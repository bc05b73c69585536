import { AGENT_FILE_TOOLS, createAgentBashTool, type AgentShell, type HarnessTool } from '@agentry/harness';

const FILE_TOOLS = new Map<string, HarnessTool>(AGENT_FILE_TOOLS.map((t) => [t.name, t]));

/**
 * The `agent_toolset_20260401` tool a call names, bound to the session's sandbox; null for any other name.
 * A `bash` call never outlives the Brain's own timeout for the call.
 */
export function sandboxToolFor(
  name: string,
  sandbox: { shell: AgentShell },
  timeouts: { defaultMs: number; callMs: number },
): HarnessTool | null {
  if (name === 'bash')
    return createAgentBashTool(sandbox.shell, {
      defaultTimeoutMs: Math.min(timeouts.defaultMs, timeouts.callMs),
      maxTimeoutMs: timeouts.callMs,
    });
  return FILE_TOOLS.get(name) ?? null;
}
