import type { ChatMessage, ToolCall, ToolDefinition } from '../model/model-port.js';
import { resolvePermission, toEvaluated, type PermissionPolicy } from '../permissions/permission-policy.js';
import { CLIENT_TOOLSET, type HarnessTool, type ToolOutcome } from '../tools/tool.js';
import { errorOutcome } from '../tools/tool-executor.js';
import type { EventFactory } from './event-factory.js';
import type { HarnessHooks, HookContext } from './harness-hooks.js';
import type { RunInput, TokenBudgets } from './harness-config.js';
import type { HarnessEvent, PersistedHarnessEvent, StopReason } from './harness-events.js';
import { isPersistedEvent } from './harness-events.js';
import { callModel, type ModelCallDeps } from './model-call.js';
import { abandonedOutcome, openToolCalls, planResume } from '../recovery/resume-plan.js';
import type { RunState } from './run-state.js';
import { executeCalls, interruptedOutcome, toolResult, type ToolRunnerDeps } from './tool-runner.js';

type Done = Exclude<ToolOutcome, { status: 'pending' }>;

export interface LoopDeps {
  model: ModelCallDeps;
  runner: ToolRunnerDeps;
  events: EventFactory;
  hooks: HarnessHooks;
  hookContext: HookContext;
  policy: PermissionPolicy;
  /** Builds the system prompt for one model call (base prompt + context + skills). */
  systemPrompt: () => Promise<string>;
  toolDefinitions: ToolDefinition[];
  maxIters: number;
  budgets: TokenBudgets;
  flushMemory: boolean;
  /** Records the run's persisted events as they happen (the session log). */
  transcript?: { append(events: PersistedHarnessEvent[], now: Date): Promise<void> };
  /** User-visible messages to add before the model runs (e.g. finished offloaded tasks); taken only when used. */
  takeInjected: () => ChatMessage[];
}

/** The agent loop of one run: resume → new input → (model → permissions → tools)* → stop reason. */
export async function* runLoop(
  deps: LoopDeps,
  input: RunInput,
  state: RunState,
  signal: AbortSignal,
): AsyncGenerator<HarnessEvent, StopReason> {
  const log: PersistedHarnessEvent[] = [];
  const track = (event: HarnessEvent): HarnessEvent => {
    if (isPersistedEvent(event)) log.push(event);
    return event;
  };
  const flush = async (): Promise<void> => {
    if (deps.transcript && log.length) await deps.transcript.append(log.splice(0), deps.model.clock.now());
  };
  try {
    const newMessages = [
      ...(input.newMessages ?? []),
      ...(input.text !== undefined ? [userText(input.text)] : []),
    ];
    const dangling = openToolCalls(state.conversation);
    if (dangling.length) {
      const plan = planResume(dangling, input, (name) => deps.runner.tools.get(name)?.idempotent === true);
      const ran = await executeCalls(deps.runner, plan.approved, signal);
      const pending: string[] = [];
      for (const call of dangling) {
        const outcome = plan.ready.get(call.id) ?? ran.get(call.id);
        // An interrupted run closes what it would have left waiting (a confirmation, a worker's result).
        if (outcome?.status === 'pending' && !signal.aborted) {
          const asked = elicitationOf(deps, call, outcome);
          if (asked) yield track(asked);
          pending.push(asked?.id ?? call.id);
        } else if (outcome && outcome.status !== 'pending')
          yield track(appendResult(deps, state, call, outcome));
        else if (signal.aborted) yield track(appendResult(deps, state, call, interruptedOutcome()));
        else if (newMessages.length) yield track(appendResult(deps, state, call, abandonedOutcome()));
        else pending.push(call.id);
      }
      if (pending.length) return { type: 'requires_action', tool_use_ids: pending };
    }
    state.conversation.push(...newMessages, ...deps.takeInjected());
    if (state.conversation.at(-1)?.role === 'assistant') return { type: 'end_turn' };
    return yield* relay(turns(deps, state, signal), track, flush);
  } finally {
    await flush();
  }
}

async function* turns(
  deps: LoopDeps,
  state: RunState,
  signal: AbortSignal,
): AsyncGenerator<HarnessEvent, StopReason> {
  let emergencyUsed = false;
  for (let iter = 0; ; iter++) {
    if (signal.aborted) return { type: 'interrupted' };
    if (iter >= deps.maxIters) return { type: 'max_iters' };
    const budget = deps.budgets.maxTotalTokensPerRun;
    if (budget !== undefined && state.usage.input_tokens + state.usage.output_tokens >= budget)
      return { type: 'budget_reached' };
    if (deps.hooks.compact) yield* compact(deps, state, false);
    const system = await deps.systemPrompt();
    const messages: ChatMessage[] = system
      ? [{ role: 'system', content: system }, ...state.conversation]
      : [...state.conversation];
    const maxTokens = deps.budgets.maxOutputTokensPerRequest;
    const request = {
      messages,
      ...(deps.toolDefinitions.length ? { tools: deps.toolDefinitions } : {}),
      ...(maxTokens ? { maxTokens } : {}),
    };
    const result = yield* callModel(deps.model, request, state.usage, signal);
    if (!result.ok) {
      if (result.error.code === 'CONTEXT_OVERFLOW' && deps.hooks.compact && !emergencyUsed) {
        emergencyUsed = true;
        yield* compact(deps, state, true);
        iter--;
        continue;
      }
      if (result.error.code === 'ABORTED') return { type: 'interrupted' };
      // The model port refused the call before sending it: a budget or quota is spent.
      if (result.error.code === 'BUDGET_EXCEEDED') return { type: 'budget_reached' };
      return { type: 'error', error: result.error.toBody() };
    }
    const message = result.message;
    state.conversation.push(message);
    const thinking = message.content.flatMap((b) =>
      b.type === 'thinking' && b.text ? [{ type: 'text' as const, text: b.text }] : [],
    );
    if (thinking.length)
      yield deps.events.make({ type: 'agent.thinking', content: thinking }, result.ids.thinking);
    const text = message.content.flatMap((b) =>
      b.type === 'text' && b.text ? [{ type: 'text' as const, text: b.text }] : [],
    );
    if (text.length) yield deps.events.make({ type: 'agent.message', content: text }, result.ids.message);
    const calls = message.toolCalls ?? [];
    if (calls.length === 0) {
      if (deps.flushMemory && deps.hooks.flushMemory)
        await bestEffort(deps, 'memory flush', () =>
          deps.hooks.flushMemory!(deps.hookContext, state.conversation),
        );
      return { type: 'end_turn' };
    }
    const waiting = yield* toolPhase(deps, state, calls, signal);
    if (signal.aborted) return { type: 'interrupted' };
    if (waiting.length) return { type: 'requires_action', tool_use_ids: waiting };
  }
}

/** Permissions before execution, then parallel execution; returns the ids that wait for the caller. */
async function* toolPhase(
  deps: LoopDeps,
  state: RunState,
  calls: ToolCall[],
  signal: AbortSignal,
): AsyncGenerator<HarnessEvent, string[]> {
  const asks: string[] = [];
  const denied = new Map<string, Done>();
  const allowed: ToolCall[] = [];
  for (const call of calls) {
    const tool = deps.runner.tools.get(call.name);
    const evaluated = tool ? toEvaluated(resolvePermission(tool, deps.policy)) : 'allow';
    // The executor looks up where the call runs while its tool_use is recorded, not after.
    if (tool && evaluated === 'allow')
      deps.runner.executor.expect?.({ toolName: call.name, toolCallId: call.id });
    yield toolUseEvent(deps, call, tool, evaluated);
    if (evaluated === 'deny')
      denied.set(
        call.id,
        errorOutcome(
          `[permission_denied] Tool ${call.name} is denied by the permission policy`,
          'permission_denied',
        ),
      );
    else if (evaluated === 'ask') asks.push(call.id);
    else allowed.push(call);
  }
  const outcomes = await executeCalls(deps.runner, allowed, signal);
  const pending: string[] = [];
  for (const call of calls) {
    let outcome = denied.get(call.id) ?? outcomes.get(call.id);
    if (!outcome) continue;
    if (outcome.status === 'pending') {
      if (!signal.aborted) {
        const asked = elicitationOf(deps, call, outcome);
        if (asked) yield asked;
        pending.push(asked?.id ?? call.id);
        continue;
      }
      outcome = interruptedOutcome();
    }
    yield appendResult(deps, state, call, outcome);
  }
  return [...asks, ...pending];
}

function toolUseEvent(
  deps: LoopDeps,
  call: ToolCall,
  tool: HarnessTool | undefined,
  evaluated: 'allow' | 'ask' | 'deny',
): PersistedHarnessEvent {
  const toolset = tool?.toolset ?? '';
  if (toolset === CLIENT_TOOLSET)
    return deps.events.make({ type: 'agent.custom_tool_use', name: call.name, input: call.input }, call.id);
  if (toolset.startsWith('mcp:')) {
    return deps.events.make(
      {
        type: 'agent.mcp_tool_use',
        name: call.name,
        server_name: toolset.slice(4),
        input: call.input,
        evaluated_permission: evaluated,
      },
      call.id,
    );
  }
  return deps.events.make(
    { type: 'agent.tool_use', name: call.name, input: call.input, evaluated_permission: evaluated },
    call.id,
  );
}

/** The `agent.mcp_elicitation` of a call whose MCP server waits for the user at a link; the run waits on it. */
function elicitationOf(
  deps: LoopDeps,
  call: ToolCall,
  outcome: Extract<ToolOutcome, { status: 'pending' }>,
): PersistedHarnessEvent | undefined {
  const asked = outcome.elicitation;
  if (!asked) return undefined;
  return deps.events.make({
    type: 'agent.mcp_elicitation',
    tool_use_id: call.id,
    server_name: asked.serverName,
    message: asked.message,
    url: asked.url,
  });
}

function appendResult(deps: LoopDeps, state: RunState, call: ToolCall, outcome: Done): PersistedHarnessEvent {
  const { message, event } = toolResult(deps.runner, call, outcome);
  state.conversation.push(message);
  return event;
}

async function* compact(
  deps: LoopDeps,
  state: RunState,
  emergency: boolean,
): AsyncGenerator<HarnessEvent, void> {
  const result = await bestEffort(deps, 'compaction', () =>
    deps.hooks.compact!(deps.hookContext, state.conversation, { emergency }),
  );
  if (result?.summary === undefined) return;
  state.conversation = result.conversation;
  yield deps.events.make({
    type: 'agent.thread_context_compacted',
    summary: result.summary,
    context: result.conversation,
  });
}

/** Runs a middleware step whose failure must not fail the turn (the turn's own work is already done or can proceed). */
async function bestEffort<T>(deps: LoopDeps, step: string, fn: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch (err) {
    if (deps.hookContext.signal.aborted) return undefined;
    deps.model.logger.warn('harness middleware step failed', {
      step,
      error: err instanceof Error ? err.message : String(err),
    });
    return undefined;
  }
}

/** Forwards a generator's events through `track`, flushing the transcript after each persisted tool result. */
async function* relay<R>(
  gen: AsyncGenerator<HarnessEvent, R>,
  track: (e: HarnessEvent) => HarnessEvent,
  flush: () => Promise<void>,
): AsyncGenerator<HarnessEvent, R> {
  for (;;) {
    const next = await gen.next();
    if (next.done) return next.value;
    yield track(next.value);
    if (next.value.type === 'span.model_request_end') await flush();
  }
}

function userText(text: string): ChatMessage {
  return { role: 'user', content: [{ type: 'text', text }] };
}
