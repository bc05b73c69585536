import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '@agentry/contracts';
import { consolidateMemory, pruneDailyMemory } from '@agentry/harness';
import { CLOCK, DATABASE, type Clock } from '@agentry/platform';
import type { ServiceDatabase } from '@agentry/db';
import { HarnessFactory } from '../agent-harness/harness-factory.js';
import { SharedWorkspaces } from '../agent-harness/shared-workspaces.js';

interface AgentMemoryWork {
  tenantId: string;
  agentId: string;
  consolidate: { minIntervalMs: number } | null;
  prune: { keepDays: number } | null;
}

/** Daily ledgers as the harness names them, under an agent's shared root. */
const LEDGER_PATH = '^memory/[0-9]{4}-[0-9]{2}-[0-9]{2}\\.md$';
const AGENT_ROOT = '^tenants/[^/]+/agents/([^/]+)/shared$';

/**
 * The harness's own memory upkeep, run for an agent outside any session: consolidation of the daily
 * ledgers into MEMORY.md on the agent's current model, and pruning of old ledgers. Both work on the
 * agent's shared workspace, the one its sessions read memory from.
 */
@Injectable()
export class AgentMemoryService {
  constructor(
    private readonly workspaces: SharedWorkspaces,
    private readonly harnesses: HarnessFactory,
    @Inject(DATABASE) private readonly db: ServiceDatabase<'dataplane'>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Agents (id order, after `afterId`) whose shared workspace holds at least one daily ledger. */
  async agentsWithLedgers(
    afterId: string | null,
    limit: number,
  ): Promise<Array<{ tenantId: string; agentId: string }>> {
    return this.db.$queryRaw<Array<{ tenantId: string; agentId: string }>>`
      SELECT DISTINCT f.tenant_id AS "tenantId", substring(f.root from ${AGENT_ROOT}) AS "agentId"
      FROM workspace_files f
      WHERE f.root ~ ${AGENT_ROOT} AND f.path ~ ${LEDGER_PATH}
        AND (${afterId}::text IS NULL OR substring(f.root from ${AGENT_ROOT}) > ${afterId})
      ORDER BY "agentId"
      LIMIT ${limit}`;
  }

  async maintain(work: AgentMemoryWork): Promise<{ consolidation: string | null; pruned: string[] }> {
    const fs = this.workspaces.forAgent({ tenantId: work.tenantId, agentId: work.agentId, sessionId: '-' });
    let consolidation: string | null = null;
    if (work.consolidate) {
      const outcome = await consolidateMemory({
        fs,
        model: this.harnesses.modelFor(await this.currentModel(work)),
        clock: this.clock,
        minIntervalMs: work.consolidate.minIntervalMs,
      });
      consolidation = outcome.status;
    }
    const pruned = work.prune
      ? await pruneDailyMemory(fs, { keepDays: work.prune.keepDays, clock: this.clock })
      : [];
    return { consolidation, pruned };
  }

  /** The model of the agent's latest version: consolidation speaks for the agent as it is now. */
  private async currentModel(work: AgentMemoryWork): Promise<{ id: string } & Record<string, unknown>> {
    const latest = await this.db.agentVersion.findFirst({
      where: { tenantId: work.tenantId, agentId: work.agentId },
      orderBy: { version: 'desc' },
      select: { model: true },
    });
    if (!latest) throw new AppError('NOT_FOUND', `Agent ${work.agentId} not found`);
    const model = latest.model as { id?: unknown } & Record<string, unknown>;
    if (typeof model.id !== 'string') throw new AppError('INTERNAL', `Agent ${work.agentId} has no model id`);
    return model as { id: string } & Record<string, unknown>;
  }
}
