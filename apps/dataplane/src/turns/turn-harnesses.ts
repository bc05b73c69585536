import { Inject, Injectable } from '@nestjs/common';
import type { Harness } from '@agentry/harness';
import { TurnBudgets } from '../budgets/turn-budgets.js';
import type { TurnBudget } from '../budgets/turn-budget.js';
import { DATAPLANE_CONFIG, type DataplaneEnv } from '../config/env.js';
import { runsOnClusterWorker, type HandsTarget } from '../hands/hands-tool-executor.js';
import { handsKindOf, sandboxNetworkingOf, sandboxProviderOf } from '../hands/sandbox-networking.mapper.js';
import { agentMcpServers } from '../mcp/agent-mcp-servers.js';
import { SessionMountPlanner } from '../mounts/session-mount-plan.js';
import { threadLinkOf } from '../threads/thread-spec.js';
import { ThreadTurns } from '../threads/thread-turns.js';
import type { AdvisorModelFor } from '../threads/advisor-threads.js';
import { HarnessFactory } from '../agent-harness/harness-factory.js';
import { SharedWorkspaces } from '../agent-harness/shared-workspaces.js';
import type { WorkspaceFs } from '@agentry/workspace';
import type { LeasedTurn } from '../drain/session-drain.js';
import type { SessionSpec, Turn } from './turn.js';

export interface TurnHarness {
  harness: Harness;
  /** The turn's side of the budgets: every model call of the harness is metered through it. */
  budget: TurnBudget;
}

/**
 * The pipeline's fourth stage: the harness the turn runs, built for this session — its pinned agent and
 * model (metered by the budgets: admission is asked before every model call, there and only there), the
 * agent's shared workspace, the session's mounts and Hands, and the platform's own tools of the turn.
 */
@Injectable()
export class TurnHarnesses {
  constructor(
    private readonly harnesses: HarnessFactory,
    private readonly budgets: TurnBudgets,
    private readonly mountPlanner: SessionMountPlanner,
    private readonly workspaces: SharedWorkspaces,
    private readonly threads: ThreadTurns,
    @Inject(DATAPLANE_CONFIG) private readonly config: DataplaneEnv,
  ) {}

  /**
   * The agent's shared workspace with what the turn's prelude reads fetched (one statement): asked for as
   * the turn is started, beside its start statement, and handed to `forTurn`.
   */
  preludeOf({ session }: LeasedTurn): Promise<WorkspaceFs> {
    try {
      const spec = session.spec as SessionSpec;
      const owner = threadLinkOf(spec)?.sessionId ?? session.id;
      return this.workspaces.forAgentTurn({
        tenantId: session.tenantId,
        agentId: spec.agent.id,
        sessionId: owner,
      });
    } catch (error) {
      // A spec the runner cannot read fails the turn where it is built, after its start, as any other failure.
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  async forTurn(turn: Turn, prelude: Promise<WorkspaceFs>): Promise<TurnHarness> {
    const { session, facts, spec, writer } = turn;
    const budget = await this.budgetOf(turn);
    const kind = handsKindOf(spec.environment.type);
    // A thread works in its session's one filesystem, with its resources and vault credentials.
    const owner = threadLinkOf(spec)?.sessionId ?? session.id;
    const mounts = await this.mountPlanner.plan({
      tenantId: session.tenantId,
      sessionId: session.id,
      resourcesOf: owner,
      agent: spec.agent,
      writableMounts: runsOnClusterWorker(kind),
      // A thread's own row lists no resources: its session's are asked for.
      ...(owner === session.id ? { hasResources: facts.hasResources } : {}),
    });
    const ownerIds = { tenantId: session.tenantId, agentId: spec.agent.id, sessionId: owner };
    const hands: HandsTarget = {
      tenantId: session.tenantId,
      sessionId: owner,
      environmentId: session.environmentId,
      environmentType: kind,
      timeoutMs: this.config.AGENTRY_TOOL_TIMEOUT_MS,
      networking: sandboxNetworkingOf(
        spec.environment.config,
        agentMcpServers(spec.agent).servers.map((server) => server.url),
      ),
      ...sandboxProviderOf(spec.environment.config),
      mounts: mounts.mounts,
      // A thread's own row lists no vaults: its session's are asked for.
      ...(owner === session.id ? { vaults: facts.hasVaults } : {}),
    };
    // The sandbox opens beside the model call, never before it: only the first tool call waits for it.
    // An agent without the toolset has no tool that opens it ahead of need (a tools.json server opens it
    // when first used).
    if (spec.agent.tools.some((tool) => tool.type === 'agent_toolset_20260401'))
      this.harnesses.warmHands(hands);
    const workspace = await prelude;
    const harness = this.harnesses.create({
      meterModel: (model) => budget.meter(model),
      tools: await this.threads.toolsFor(session, writer, {
        workspace,
        advisorModel: this.advisorModel(turn),
      }),
      mounts,
      reportError: (error) => writer.emit({ type: 'session.error', error }),
      agent: spec.agent,
      workspace,
      sessionFiles: this.workspaces.forSession(ownerIds),
      hands,
      mcp: { tenantId: session.tenantId, sessionId: session.id, vaultSessionId: owner },
    });
    return { harness, budget };
  }

  /** The advisor's model for a call: charged to the session, and counted on the advisor's thread. */
  private advisorModel({ session, spec }: Turn): AdvisorModelFor {
    return async (model, threadId) => {
      const owner = {
        tenantId: session.tenantId,
        namespaceId: session.namespaceId,
        sessionId: session.id,
        agentId: spec.agent.id,
        threadId,
      };
      return (await this.budgets.open(owner, null)).meterBeside(this.harnesses.modelFor({ id: model }));
    };
  }

  /** A session thread's model calls are charged to the session it belongs to, and counted on both. */
  private budgetOf({ session, facts, spec }: Turn): Promise<TurnBudget> {
    const payer = threadLinkOf(spec)?.sessionId ?? session.id;
    const owner = {
      tenantId: session.tenantId,
      namespaceId: session.namespaceId,
      sessionId: payer,
      agentId: spec.agent.id,
      ...(payer === session.id ? {} : { threadId: session.id }),
    };
    return this.budgets.open(owner, payer === session.id ? facts.account : null);
  }
}
