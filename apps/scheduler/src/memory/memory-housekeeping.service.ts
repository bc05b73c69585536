import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Jobs, UpkeepSubjects } from '@agentry/contracts';
import { JobQueue, LOGGER, RpcClient, type Logger } from '@agentry/platform';
import { SCHEDULER_CONFIG, type SchedulerEnv } from '../config/env.js';

const PAGE = 100;

interface AgentRef {
  tenantId: string;
  agentId: string;
}

interface MemoryTickResult {
  agents: number;
  consolidated: number;
  pruned: number;
  failed: number;
}

/**
 * The agents' memory upkeep on a clock: consolidation of the daily ledgers into MEMORY.md and pruning of
 * old ledgers, each a BullMQ job scheduler (one replica runs each tick). The dataplane does the work per
 * agent; one agent failing (its model down) is logged and the others go on.
 */
@Injectable()
export class MemoryHousekeepingService implements OnApplicationBootstrap {
  constructor(
    private readonly jobs: JobQueue,
    private readonly rpc: RpcClient,
    @Inject(SCHEDULER_CONFIG) private readonly config: SchedulerEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const consolidateEvery = this.config.AGENTRY_MEMORY_CONSOLIDATION_INTERVAL_MS;
    if (consolidateEvery > 0) {
      this.jobs.process(Jobs.memoryConsolidation, () => this.consolidate().then(() => undefined), 1);
      await this.jobs.every(Jobs.memoryConsolidation, consolidateEvery, {});
    } else {
      await this.jobs.removeScheduler(Jobs.memoryConsolidation, `${Jobs.memoryConsolidation.queue}-every`);
    }
    if (this.config.AGENTRY_MEMORY_PRUNE_DAYS > 0) {
      this.jobs.process(Jobs.memoryPruning, () => this.prune().then(() => undefined), 1);
      await this.jobs.every(Jobs.memoryPruning, this.config.AGENTRY_MEMORY_PRUNE_INTERVAL_MS, {});
    } else {
      await this.jobs.removeScheduler(Jobs.memoryPruning, `${Jobs.memoryPruning.queue}-every`);
    }
  }

  /** One consolidation tick over every agent with ledgers. */
  consolidate(): Promise<MemoryTickResult> {
    // The tick is the schedule: the harness's own minimum interval must not skip an agent a tick reaches.
    return this.forEachAgent('memory consolidation', { consolidate: { minIntervalMs: 0 }, prune: null });
  }

  /** One pruning tick over every agent with ledgers. */
  prune(): Promise<MemoryTickResult> {
    const keepDays = this.config.AGENTRY_MEMORY_PRUNE_DAYS;
    return this.forEachAgent('memory pruning', { consolidate: null, prune: { keepDays } });
  }

  private async forEachAgent(
    what: string,
    work: { consolidate: { minIntervalMs: number } | null; prune: { keepDays: number } | null },
  ): Promise<MemoryTickResult> {
    const result: MemoryTickResult = { agents: 0, consolidated: 0, pruned: 0, failed: 0 };
    let afterId: string | null = null;
    for (;;) {
      const page: { agents: AgentRef[] } = await this.rpc.request(UpkeepSubjects.listAgentsWithMemory, {
        afterId,
        limit: PAGE,
      });
      const { agents } = page;
      for (const agent of agents) {
        result.agents += 1;
        try {
          const done = await this.rpc.request(UpkeepSubjects.maintainAgentMemory, { ...agent, ...work });
          if (done.consolidation === 'consolidated') result.consolidated += 1;
          result.pruned += done.pruned.length;
        } catch (err) {
          result.failed += 1;
          this.logger.warn({ agentId: agent.agentId, err }, `${what} failed for an agent`);
        }
      }
      if (agents.length < PAGE) break;
      afterId = agents.at(-1)!.agentId;
    }
    this.logger.info({ ...result }, `${what} done`);
    return result;
  }
}
