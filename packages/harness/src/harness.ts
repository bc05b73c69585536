import { AppError } from '@agentry/contracts';
import type { ChatMessage } from './model/model-port.js';
import { EventFactory } from './loop/event-factory.js';
import { defaultHooks } from './loop/default-hooks.js';
import { createMcpWiring } from './loop/mcp-wiring.js';
import type { HarnessConfig, RunContext, RunInput } from './loop/harness-config.js';
import type { HarnessEvent, PersistedHarnessEvent, RunEndEvent, StopReason } from './loop/harness-events.js';
import type { HookContext } from './loop/harness-hooks.js';
import { createEventIdGenerator, silentLogger, systemClock } from './loop/ports.js';
import { runLoop } from './loop/run-loop.js';
import { emptyUsage, type RunState } from './loop/run-state.js';
import { OffloadManager, type OffloadedResult } from './offload/offload-manager.js';
import { WorkspaceSessionLogs } from './transcript/workspace-session-logs.js';
import { inProcessToolExecutor } from './tools/tool-executor.js';
import { assembleTools } from './tools/tool-registry.js';
import { textOf } from './loop/tool-runner.js';

export interface Harness {
  readonly config: Readonly<HarnessConfig>;
  /** Runs the agent loop over the given state; the last event is always `run.end`. */
  run(input: RunInput, context: RunContext, signal?: AbortSignal): AsyncIterable<HarnessEvent>;
  /** Takes the results of offloaded tools that finished since (they are otherwise injected into the next run). */
  pendingResults(sessionId?: string): OffloadedResult[];
  /** Offloaded tasks still running. */
  runningTasks(sessionId?: string): string[];
  /** Resolves once every offloaded task running now has finished. */
  settled(): Promise<void>;
  /** Releases what the instance holds open (MCP connections, stdio servers). */
  close(): Promise<void>;
}

/** Builds a harness. Every instance has its own offload table; nothing is shared between instances. */
export function createHarness(config: HarnessConfig): Harness {
  const clock = config.clock ?? systemClock;
  const logger = config.logger ?? silentLogger;
  const events = new EventFactory(config.idGenerator ?? createEventIdGenerator(clock), clock);
  const offload = new OffloadManager(clock);
  const executor = config.toolExecutor ?? inProcessToolExecutor;
  const mcp = createMcpWiring(logger);
  const hooks = defaultHooks(config, logger, clock, mcp, createHarness);
  const sessionLogs = config.sessionLogs ?? new WorkspaceSessionLogs(config.workspace);

  async function* run(
    input: RunInput,
    context: RunContext,
    signal: AbortSignal = new AbortController().signal,
  ): AsyncGenerator<HarnessEvent> {
    const state: RunState = { conversation: [...input.conversation], usage: emptyUsage() };
    let stop: StopReason;
    try {
      stop = yield* runOnce(input, context, signal, state);
    } catch (err) {
      // Storage the platform cannot reach right now (Postgres restarting) is not the turn's failure: the caller
      // gives the turn up unfinished, as after a crash, and it resumes from the log once storage is back.
      if (isTransientOutage(err)) throw err;
      // Anything unexpected still ends the run with run.end, so the caller can persist and report it.
      logger.error('harness run failed', {
        sessionId: context.sessionId,
        error: err instanceof Error ? err.stack : String(err),
      });
      const error = AppError.is(err)
        ? err
        : new AppError('INTERNAL', err instanceof Error ? err.message : String(err), { cause: err });
      stop = { type: 'error', error: error.toBody() };
    }
    yield endEvent(stop, state, offload.runningTaskIds(context.sessionId));
  }

  async function* runOnce(
    input: RunInput,
    context: RunContext,
    signal: AbortSignal,
    state: RunState,
  ): AsyncGenerator<HarnessEvent, StopReason> {
    const hookContext: HookContext = { fs: config.workspace, model: config.model, run: context, signal };
    const { tools, skillsPrompt } = await assembleTools(config, hooks, hookContext, logger, (plan) => {
      state.plan = plan;
    });
    const systemPrompt = async (): Promise<string> => {
      const parts = [config.systemPrompt ?? ''];
      if (!config.disableWorkspaceContext && hooks.workspaceContext)
        parts.push(await hooks.workspaceContext(hookContext));
      parts.push(skillsPrompt);
      return parts.filter((p) => p.trim() !== '').join('\n\n');
    };
    const transcript = config.disableSessionPersistence
      ? undefined
      : { append: (events: PersistedHarnessEvent[], now: Date) => sessionLogs.append(context, events, now) };
    return yield* runLoop(
      {
        model: {
          model: config.model,
          clock,
          logger,
          events,
          retries: config.modelRetries ?? 3,
          backoffMs: config.retryBackoffMs ?? 500,
          maxDelayMs: config.retryMaxDelayMs ?? 60_000,
        },
        runner: {
          tools,
          executor,
          offload,
          offloadTimeoutMs: config.offloadTimeoutMs ?? {},
          concurrency: Math.max(1, config.toolConcurrency ?? 4),
          fs: config.workspace,
          run: context,
          events,
          hooks,
          hookContext,
        },
        events,
        hooks,
        hookContext,
        policy: config.permissions ?? {},
        systemPrompt,
        toolDefinitions: [...tools.values()].map((t) => ({
          name: t.name,
          description: t.description,
          inputSchema: t.inputSchema,
        })),
        maxIters: config.maxIters ?? 20,
        budgets: config.budgets ?? {},
        flushMemory: !config.disableMemoryHooks,
        ...(transcript ? { transcript } : {}),
        takeInjected: () => offload.pendingResults(context.sessionId).map(asyncResultMessage),
      },
      input,
      state,
      signal,
    );
  }

  return {
    config,
    run,
    pendingResults: (sessionId) => offload.pendingResults(sessionId),
    runningTasks: (sessionId) => offload.runningTaskIds(sessionId),
    settled: () => offload.settled(),
    close: () => mcp.close(),
  };
}

function endEvent(stop: StopReason, state: RunState, pendingTasks: string[]): RunEndEvent {
  return {
    type: 'run.end',
    stop_reason: stop,
    conversation: state.conversation,
    usage: state.usage,
    pending_tasks: pendingTasks,
    ...(state.plan ? { plan: state.plan } : {}),
  };
}

/** A finished offloaded task, shown to the model as a user-visible message in the next turn. */
function asyncResultMessage(result: OffloadedResult): ChatMessage {
  const status = result.outcome.status === 'error' ? 'failed' : 'finished';
  const body = result.outcome.status === 'pending' ? '' : textOf(result.outcome.content);
  return {
    role: 'user',
    content: [
      {
        type: 'text',
        text: `<async_result task_id="${result.taskId}" tool="${result.toolName}" status="${status}">\n${body}\n</async_result>`,
      },
    ],
  };
}

/** A retryable `UNAVAILABLE`: a backing store or service that is away for now, not a fault of the run. */
export function isTransientOutage(error: unknown): boolean {
  return AppError.is(error, 'UNAVAILABLE') && error.retryable;
}
