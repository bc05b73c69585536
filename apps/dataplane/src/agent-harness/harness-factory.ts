import { Inject, Injectable } from '@nestjs/common';
import { AppError, SESSION_MOUNT_PATHS, type SessionAgent } from '@agentry/contracts';
import {
  createHarness,
  modelProvidersFromEnv,
  resolveModel,
  ScriptedModel,
  unservableModelError,
  type Harness,
  type HarnessTool,
  type ModelPort,
  type ModelProvidersConfig,
} from '@agentry/harness';
import type { WorkspaceFs } from '@agentry/workspace';
import type { Redis } from 'ioredis';
import { CLOCK, LOGGER, NatsBus, REDIS, RpcClient, type Clock, type Logger } from '@agentry/platform';
import { DATAPLANE_CONFIG, type DataplaneEnv } from '../config/env.js';
import { natsHandsCanceller, type HandsCanceller } from '../hands/hands-cancel.js';
import { HandsBindings } from '../hands/hands-bindings.js';
import { HandsToolExecutor, type HandsTarget } from '../hands/hands-tool-executor.js';
import { HandsWarmup } from '../hands/hands-warmup.js';
import { redisRecordedResults, type RecordedResultLookup } from '../hands/recorded-results.js';
import { agentCustomTools } from '../hands/custom-tools.js';
import { sessionAgentTools } from '../hands/session-agent-tools.js';
import { SessionEventsRepository } from '../event-log/session-events.repository.js';
import { SessionMcpPool, type McpSessionRef, type SessionErrorReporter } from '../mcp/session-mcp-pool.js';
import { SessionToolsJsonMcp } from '../mcp/session-tools-json-mcp.js';
import { EventLogSessionLogs } from './event-log-session-logs.js';
import { toPermissionPolicy } from './toolset-policy.mapper.js';
import { instrumentHarness, InstrumentedModel, InstrumentedToolExecutor } from '../telemetry/index.js';
import { UnservableModel } from './unservable-model.js';
import { mountedArtefactHooks } from '../mounts/mounted-artefact-hooks.js';
import { controlMemoryStoreAccess } from '../memory-tools/memory-store-access.js';
import { memoryTools } from '../memory-tools/memory-tools.js';
import type { SessionMountPlan } from '../mounts/session-mount-plan.js';

export interface SessionRuntime {
  agent: SessionAgent;
  hands: HandsTarget;
  /** Whose MCP connections the turn uses, when not the Hands' session (a thread keeps its own). */
  mcp?: McpSessionRef;
  workspace: WorkspaceFs;
  /** The session's own files, for environments whose file tools run in the Brain (`remote`). */
  sessionFiles: WorkspaceFs;
  /** Wraps the model port every call of the run goes through (budgets meter it). */
  meterModel?: (model: ModelPort) => ModelPort;
  /** Platform tools of this turn beyond the agent's own (the delegation tool of a multi-agent session). */
  tools?: HarnessTool[];
  /** What the session sees under /mnt, and the per-session store of its evicted outputs and plans. */
  mounts?: SessionMountPlan;
  /** Writes a `session.error` the user can act on into the turn (an MCP credential that cannot be refreshed). */
  reportError?: SessionErrorReporter;
}

/** Builds the harness a turn runs: the pinned agent, its model, its permissions, its Hands. */
@Injectable()
export class HarnessFactory {
  private readonly providers: ModelProvidersConfig;
  private readonly cancelHands: HandsCanceller;
  private readonly handsBindings: HandsBindings;
  private readonly recordedResults: RecordedResultLookup;
  private readonly warmup: HandsWarmup;

  constructor(
    private readonly rpc: RpcClient,
    bus: NatsBus,
    private readonly events: SessionEventsRepository,
    private readonly mcp: SessionMcpPool,
    private readonly toolsJsonMcp: SessionToolsJsonMcp,
    @Inject(DATAPLANE_CONFIG) private readonly config: DataplaneEnv,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(REDIS) redis: Redis,
    @Inject(CLOCK) clock: Clock,
  ) {
    this.cancelHands = natsHandsCanceller(bus);
    this.handsBindings = new HandsBindings(
      redis,
      config.AGENTRY_HANDS_BINDING_LEASE_MS,
      clock,
      config.AGENTRY_HANDS_WORKER_WAIT_MS,
    );
    this.recordedResults = redisRecordedResults(redis);
    this.warmup = new HandsWarmup(bus, this.handsBindings, logger);
    this.providers = {
      scripted: ({ id, settings }) => new ScriptedModel({ id, script: settings?.script }),
      providers: modelProvidersFromEnv(config),
      // The turn loop retries (visibly, as `session.error` events); the adapters must not retry under it.
      retry: { maxAttempts: 1 },
    };
  }

  create(runtime: SessionRuntime): Harness {
    const { agent } = runtime;
    const toolset = agent.tools.find((t) => t.type === 'agent_toolset_20260401');
    const memoryToolset = agent.tools.find((t) => t.type === 'memory_toolset_20261030');
    const { networking } = runtime.hands;
    // `limited` networking holds for what the model fetches as for what its sandbox reaches.
    const webFetch = {
      allowPrivateNetworks: this.config.AGENTRY_EGRESS_ALLOW_PRIVATE_NETWORKS,
      ...(networking.type === 'limited' ? { limitedTo: networking.allowedHosts } : {}),
    };
    const webSearch = {
      url: this.config.AGENTRY_WEB_SEARCH_URL,
      apiKey: this.config.AGENTRY_WEB_SEARCH_API_KEY,
    };
    const { id: modelId, ...modelSettings } = agent.model;
    const meter = runtime.meterModel ?? ((model: ModelPort) => model);
    const { mounts } = runtime;
    const logger = harnessLogger(this.logger);
    const storeTools =
      memoryToolset && mounts
        ? memoryTools(
            memoryToolset,
            mounts.memoryStores,
            // The stores are the session's (a thread's are its session's): writes are attributed to it.
            controlMemoryStoreAccess(this.rpc, {
              tenantId: runtime.hands.tenantId,
              sessionId: runtime.hands.sessionId,
            }),
          )
        : [];
    const harness = createHarness({
      model: meter(new InstrumentedModel(this.model(modelId, modelSettings))),
      workspace: runtime.workspace,
      sessionLogs: new EventLogSessionLogs(this.events, runtime.hands.tenantId),
      ...systemPromptOf(agent.system, mounts?.promptNotes ?? []),
      toolExecutor: new InstrumentedToolExecutor(
        new HandsToolExecutor(
          this.rpc,
          { ...runtime.hands, ...(runtime.reportError ? { reportError: runtime.reportError } : {}) },
          this.cancelHands,
          this.handsBindings,
          undefined,
          this.recordedResults,
        ),
        runtime.hands.environmentType,
        this.logger,
      ),
      // The toolset under its CMA names in every environment type; the harness's own file and web tools stay off.
      tools: [
        ...(toolset
          ? sessionAgentTools(toolset, runtime.hands.environmentType, {
              webFetch,
              webSearch,
              sessionFiles: runtime.sessionFiles,
              ...(mounts ? { fileMounts: mounts.fileMounts } : {}),
            })
          : []),
        ...agentCustomTools(agent.tools),
        ...storeTools,
        ...(runtime.tools ?? []),
      ],
      runTools: () => this.mcp.toolsFor(runtime.mcp ?? runtime.hands, agent, runtime.reportError),
      hooks: {
        // tools.json servers are held per session (stdio ones in the session's sandbox), not per harness.
        mcpTools: (servers) => this.toolsJsonMcp.toolsFor(runtime.hands, servers),
        ...(mounts ? mountedArtefactHooks(mounts, logger) : {}),
      },
      permissions: toPermissionPolicy(agent.tools),
      maxIters: this.config.AGENTRY_MAX_ITERS,
      modelRetries: this.config.AGENTRY_MODEL_RETRIES,
      retryBackoffMs: this.config.AGENTRY_MODEL_RETRY_BACKOFF_MS,
      retryMaxDelayMs: this.config.AGENTRY_MODEL_RETRY_MAX_DELAY_MS,
      logger,
      ...(mounts ? { planStore: { fs: mounts.artefacts, shownDir: SESSION_MOUNT_PATHS.plans } } : {}),
      // `subagents/<id>.md` children run as session threads (ThreadTurns), not inside this turn's harness.
      disableSubagents: true,
      disableFilesystemTools: true,
      disableWebTools: true,
      disablePlanTools: !toolset,
      // The memory toolset's tools take the place of the workspace memory tools (`memory_search` is in both).
      ...(storeTools.length > 0 ? { disableMemoryTools: true } : {}),
      // The scripted model would answer the memory-extraction call from its script; real models flush memory.
      disableMemoryHooks: modelId.trim().startsWith('scripted'),
    });
    return instrumentHarness(harness, agent.id);
  }

  /** Has the session's sandbox opened on its worker while the turn goes on (see HandsWarmup). */
  warmHands(hands: HandsTarget): void {
    this.warmup.warm(hands);
  }

  /** The agent's model on its own, for calls beside the agent loop (the outcome grader). */
  modelOf(agent: SessionAgent): ModelPort {
    return this.modelFor(agent.model);
  }

  /** A model as an agent version stores it (`{id, ...settings}`), for work beside any session. */
  modelFor(model: { id: string } & Record<string, unknown>): ModelPort {
    const { id, ...settings } = model;
    return new InstrumentedModel(this.model(id, settings));
  }

  /** The agent's model, or one that fails its first call with why this installation cannot serve it. */
  private model(modelId: string, settings: Record<string, unknown>): ModelPort {
    try {
      return resolveModel(modelId, this.providers, settings);
    } catch (error) {
      if (!AppError.is(error)) throw error;
      this.logger.warn(
        { model: modelId, err: error.message },
        'the agent names a model this installation cannot serve',
      );
      return new UnservableModel(modelId, unservableModelError(modelId, this.providers) ?? error);
    }
  }
}

/** The agent's system prompt, followed by what the mounted resources need the model to know. */
function systemPromptOf(
  system: string | null | undefined,
  notes: readonly string[],
): { systemPrompt?: string } {
  const parts = [...(system ? [system] : []), ...notes];
  return parts.length > 0 ? { systemPrompt: parts.join('\n\n') } : {};
}

function harnessLogger(logger: Logger) {
  return {
    debug: (msg: string, fields?: Record<string, unknown>) => logger.debug(fields ?? {}, msg),
    info: (msg: string, fields?: Record<string, unknown>) => logger.info(fields ?? {}, msg),
    warn: (msg: string, fields?: Record<string, unknown>) => logger.warn(fields ?? {}, msg),
    error: (msg: string, fields?: Record<string, unknown>) => logger.error(fields ?? {}, msg),
  };
}
