import { Inject, Injectable } from '@nestjs/common';
import type { SessionAgent } from '@agentry/contracts';
import {
  createHarness,
  resolveModel,
  ScriptedModel,
  type Harness,
  type ModelPort,
  type ModelProvidersConfig,
} from '@agentry/harness';
import type { WorkspaceFs } from '@agentry/workspace';
import { LOGGER, RpcClient, type Logger } from '@agentry/platform';
import { DATAPLANE_CONFIG, type DataplaneEnv } from '../config/env.js';
import { HandsToolExecutor, type HandsTarget } from '../hands/hands-tool-executor.js';
import { selfHostedTools } from '../hands/self-hosted-tools.js';
import { SessionEventsRepository } from '../events/session-events.repository.js';
import { EventLogSessionLogs } from './event-log-session-logs.js';
import { toPermissionPolicy } from './toolset-policy.mapper.js';
import { instrumentHarness, InstrumentedModel, InstrumentedToolExecutor } from '../telemetry/index.js';

export interface SessionRuntime {
  agent: SessionAgent;
  hands: HandsTarget;
  workspace: WorkspaceFs;
  /** File and shell tools run on the customer's worker: the model sees their CMA schemas only. */
  selfHosted: boolean;
  /** Wraps the model port every call of the run goes through (budgets meter it). */
  meterModel?: (model: ModelPort) => ModelPort;
}

/** Builds the harness a turn runs: the pinned agent, its model, its permissions, its Hands. */
@Injectable()
export class HarnessFactory {
  private readonly providers: ModelProvidersConfig;

  constructor(
    private readonly rpc: RpcClient,
    private readonly events: SessionEventsRepository,
    @Inject(DATAPLANE_CONFIG) private readonly config: DataplaneEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.providers = {
      scripted: ({ settings }) => new ScriptedModel({ script: settings?.script }),
      providers: {
        ...(config.ANTHROPIC_API_KEY || config.ANTHROPIC_BASE_URL
          ? { anthropic: { apiKey: config.ANTHROPIC_API_KEY, ...(config.ANTHROPIC_BASE_URL ? { baseUrl: config.ANTHROPIC_BASE_URL } : {}) } }
          : {}),
        ...(config.OPENAI_API_KEY || config.OPENAI_BASE_URL
          ? { openai: { apiKey: config.OPENAI_API_KEY, ...(config.OPENAI_BASE_URL ? { baseUrl: config.OPENAI_BASE_URL } : {}) } }
          : {}),
        ...(config.DASHSCOPE_API_KEY ? { dashscope: { apiKey: config.DASHSCOPE_API_KEY } } : {}),
      },
    };
  }

  create(runtime: SessionRuntime): Harness {
    const { agent } = runtime;
    const hasToolset = agent.tools.some((t) => t.type === 'agent_toolset_20260401');
    const workerTools = hasToolset && runtime.selfHosted;
    const { id: modelId, ...modelSettings } = agent.model;
    const meter = runtime.meterModel ?? ((model: ModelPort) => model);
    const harness = createHarness({
      model: meter(new InstrumentedModel(resolveModel(modelId, this.providers, modelSettings))),
      workspace: runtime.workspace,
      sessionLogs: new EventLogSessionLogs(this.events, runtime.hands.tenantId),
      ...(agent.system ? { systemPrompt: agent.system } : {}),
      toolExecutor: new InstrumentedToolExecutor(new HandsToolExecutor(this.rpc, runtime.hands), runtime.selfHosted ? 'self_hosted' : runtime.hands.environmentType),
      ...(workerTools ? { tools: selfHostedTools() } : {}),
      permissions: toPermissionPolicy(agent.tools),
      maxIters: this.config.AGENTRY_MAX_ITERS,
      logger: harnessLogger(this.logger),
      disableFilesystemTools: !hasToolset || workerTools,
      disableWebTools: !hasToolset,
      webFetch: { allowPrivateNetworks: this.config.AGENTRY_EGRESS_ALLOW_PRIVATE_NETWORKS },
      disablePlanTools: !hasToolset,
      // The scripted model would answer the memory-extraction call from its script; real models flush memory.
      disableMemoryHooks: modelId.trim().startsWith('scripted'),
    });
    return instrumentHarness(harness, agent.id);
  }
}

function harnessLogger(logger: Logger) {
  return {
    debug: (msg: string, fields?: Record<string, unknown>) => logger.debug(fields ?? {}, msg),
    info: (msg: string, fields?: Record<string, unknown>) => logger.info(fields ?? {}, msg),
    warn: (msg: string, fields?: Record<string, unknown>) => logger.warn(fields ?? {}, msg),
    error: (msg: string, fields?: Record<string, unknown>) => logger.error(fields ?? {}, msg),
  };
}
