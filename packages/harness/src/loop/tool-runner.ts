import type { WorkspaceFs } from '@agentry/workspace';
import type { ChatMessage, ContentBlock, ToolCall } from '../model/model-port.js';
import type { OffloadManager } from '../offload/offload-manager.js';
import type { HarnessTool, ToolOutcome } from '../tools/tool.js';
import {
  errorOutcome,
  invalidInputOutcome,
  type FinishedOutcome,
  type ToolExecutor,
} from '../tools/tool-executor.js';
import type { EventFactory } from './event-factory.js';
import type { RunContext } from './harness-config.js';
import type { PersistedHarnessEvent } from './harness-events.js';
import type { HarnessHooks, HookContext } from './harness-hooks.js';

export interface ToolRunnerDeps {
  tools: Map<string, HarnessTool>;
  executor: ToolExecutor;
  offload: OffloadManager;
  offloadTimeoutMs: Record<string, number>;
  concurrency: number;
  fs: WorkspaceFs;
  run: RunContext;
  events: EventFactory;
  hooks: HarnessHooks;
  hookContext: HookContext;
}

/** Runs the given calls with bounded concurrency; returns outcomes by tool_use id. */
export async function executeCalls(
  deps: ToolRunnerDeps,
  calls: ToolCall[],
  signal: AbortSignal,
): Promise<Map<string, ToolOutcome>> {
  const outcomes = new Map<string, ToolOutcome>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < calls.length) {
      const call = calls[next++]!;
      outcomes.set(call.id, await executeOne(deps, call, signal));
    }
  };
  await Promise.all(Array.from({ length: Math.min(deps.concurrency, calls.length) }, worker));
  return outcomes;
}

async function executeOne(deps: ToolRunnerDeps, call: ToolCall, signal: AbortSignal): Promise<ToolOutcome> {
  const tool = deps.tools.get(call.name);
  if (!tool) return errorOutcome(`[unknown_tool] No tool named ${call.name} is available`, 'unknown_tool');
  if (signal.aborted) return interruptedOutcome();
  // Checked before any executor runs it (in process, on a worker, on a self-hosted machine, on an MCP server).
  const refused = invalidInputOutcome(tool, call.input);
  if (refused) return refused;
  const context = {
    toolCallId: call.id,
    fs: deps.fs,
    signal,
    sessionId: deps.run.sessionId,
    agentId: deps.run.agentId,
    values: deps.run.values ?? {},
  };
  const timeout = deps.offloadTimeoutMs[tool.name] ?? deps.offloadTimeoutMs.default;
  let outcome: ToolOutcome;
  try {
    outcome = await deps.offload.run(deps.executor, { tool, input: call.input, context }, timeout);
  } catch (err) {
    outcome = errorOutcome(err instanceof Error ? err.message : String(err), 'tool_failed');
  }
  if (signal.aborted && outcome.status !== 'ok') return interruptedOutcome();
  if (outcome.status === 'ok' && deps.hooks.evictToolResult) {
    const text = textOf(outcome.content);
    const evicted = await deps.hooks.evictToolResult(deps.hookContext, {
      toolUseId: call.id,
      toolName: tool.name,
      text,
    });
    if (evicted !== text) outcome = { status: 'ok', content: [{ type: 'text', text: evicted }] };
  }
  return outcome;
}

export function interruptedOutcome(): FinishedOutcome {
  return errorOutcome(
    '[interrupted] The tool call was cancelled because the turn was interrupted; it may or may not have completed',
    'interrupted',
  );
}

/** The conversation message and the event for a finished tool call. */
export function toolResult(
  deps: Pick<ToolRunnerDeps, 'tools' | 'events'>,
  call: ToolCall,
  outcome: Exclude<ToolOutcome, { status: 'pending' }>,
): { message: ChatMessage; event: PersistedHarnessEvent } {
  const isError = outcome.status === 'error';
  const message: ChatMessage = {
    role: 'tool',
    toolCallId: call.id,
    toolName: call.name,
    content: outcome.content,
    ...(isError ? { isError } : {}),
  };
  const toolset = deps.tools.get(call.name)?.toolset ?? '';
  const event: PersistedHarnessEvent = toolset.startsWith('mcp:')
    ? deps.events.make({
        type: 'agent.mcp_tool_result',
        tool_use_id: call.id,
        server_name: toolset.slice(4),
        content: outcome.content,
        is_error: isError,
      })
    : deps.events.make({
        type: 'agent.tool_result',
        tool_use_id: call.id,
        content: outcome.content,
        is_error: isError,
      });
  return { message, event };
}

export function textOf(content: ContentBlock[]): string {
  return content.map((b) => (b.type === 'text' ? b.text : '')).join('');
}
