import { AGENT_FILE_TOOLS, createAgentBashTool, type HarnessTool } from '@agentry/harness';
import type { SessionSandbox } from '../sandbox/session-sandbox.js';

const FILE_TOOLS = new Map<string, HarnessTool>(AGENT_FILE_TOOLS.map((t) => [t.name, t]));

/** The `agent_toolset_20260401` tool a call names, bound to the session's sandbox; null for any other name. */
export function sandboxToolFor(name: string, sandbox: SessionSandbox, callTimeoutMs: number): HarnessTool | null {
  if (name === 'bash') return createAgentBashTool(sandbox.shell, { defaultTimeoutMs: Math.min(callTimeoutMs, 120_000), maxTimeoutMs: callTimeoutMs });
  return FILE_TOOLS.get(name) ?? null;
}
