import type { BetaTool } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { BetaRunnableTool } from '@anthropic-ai/sdk/lib/tools/BetaRunnableTool';
import { ToolError } from '@anthropic-ai/sdk/lib/tools/ToolError';
import {
  agentToolSchema,
  inProcessToolExecutor,
  type AgentToolsetName,
  type HarnessTool,
} from '@agentry/harness';
import { sandboxToolFor } from '../hands/sandbox-tools.js';
import type { SessionSandbox } from '../sandbox/session-sandbox.js';
import type { SessionSandboxLease } from './session-sandbox-lease.js';

const AGENT_TOOLSET_NAMES: AgentToolsetName[] = ['bash', 'read', 'write', 'edit', 'glob', 'grep'];

/**
 * The `agent_toolset_20260401` tools as the SDK's session runner calls them, each running the cluster
 * Hands' own tool code in this machine's bubblewrap sandbox. A failed call is a model-visible error
 * (ToolError); a stop or per-tool timeout aborts `signal`, which kills the call's processes.
 */
export function sandboxRunnableTools(
  lease: SessionSandboxLease,
  sessionId: string,
  timeouts: { defaultMs: number; callMs: number },
): BetaRunnableTool[] {
  const tools = AGENT_TOOLSET_NAMES.map((name) =>
    runnable(name, (sandbox) => sandboxToolFor(name, sandbox, timeouts)!, lease, sessionId),
  );
  // The runner calls `close` on every tool once it stops; one of them owning the sandbox is enough.
  tools[0]!.close = () => lease.close();
  return tools;
}

function runnable(
  name: AgentToolsetName,
  toolOf: (sandbox: SessionSandbox) => HarnessTool,
  lease: SessionSandboxLease,
  sessionId: string,
): BetaRunnableTool {
  const schema = agentToolSchema(name);
  return {
    type: 'custom',
    name,
    description: schema.description,
    input_schema: schema.inputSchema as BetaTool['input_schema'],
    parse: (content: unknown) =>
      content && typeof content === 'object' ? (content as Record<string, unknown>) : {},
    async run(input, context) {
      const signal = context?.signal ?? new AbortController().signal;
      const toolCallId = context?.toolUse.id ?? '';
      const outcome = await lease.use((sandbox) =>
        inProcessToolExecutor.execute({
          tool: toolOf(sandbox),
          input: input as Record<string, unknown>,
          context: { toolCallId, fs: sandbox.fs, signal, sessionId, agentId: '', values: {} },
        }),
      );
      if (outcome.status === 'pending') throw new ToolError(`${name}: the call did not finish`);
      const text = outcome.content.flatMap((b) =>
        b.type === 'text' ? [{ type: 'text' as const, text: b.text }] : [],
      );
      if (outcome.status === 'error') throw new ToolError(text.length > 0 ? text : `${name} failed`);
      return text;
    },
  };
}
