import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, CLOCK, type Clock } from '@agentry/platform';
import type { MultiagentRun as RunRow, ServiceDatabase } from '@agentry/db';
import type { Actor, MultiagentRun, MultiagentRunEntry } from '@agentry/contracts';

export interface StoredRun {
  run: MultiagentRun;
  actor: Actor;
}

/** The `multiagent_runs` table, owned by the scheduler. Entries are written one at a time, in place. */
@Injectable()
export class MultiagentRunsRepository {
  constructor(
    @Inject(DATABASE) private readonly db: ServiceDatabase<'scheduler'>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async create(data: {
    id: string;
    actor: Actor;
    message: string;
    environmentId: string;
    parallel: boolean;
    agentIds: string[];
    deadlineAt: Date;
  }): Promise<StoredRun> {
    const results: MultiagentRunEntry[] = data.agentIds.map((agentId) => ({
      agent_id: agentId,
      session_id: null,
      status: 'pending',
      reply: null,
      error: null,
    }));
    const row = await this.db.multiagentRun.create({
      data: {
        id: data.id,
        tenantId: data.actor.tenantId,
        namespaceId: data.actor.namespaceId,
        actor: data.actor,
        message: data.message,
        environmentId: data.environmentId,
        parallel: data.parallel,
        results,
        deadlineAt: data.deadlineAt,
      },
    });
    return toStored(row);
  }

  /** A run of the caller's namespace, or null. */
  async findForActor(actor: Actor, id: string): Promise<MultiagentRun | null> {
    const row = await this.db.multiagentRun.findFirst({
      where: { id, tenantId: actor.tenantId, namespaceId: actor.namespaceId },
    });
    return row ? toStored(row).run : null;
  }

  async find(id: string): Promise<StoredRun | null> {
    const row = await this.db.multiagentRun.findUnique({ where: { id } });
    return row ? toStored(row) : null;
  }

  /** Runs a crash or a lost queue left unfinished (the job of each is queued again at start-up). */
  async unfinished(limit: number): Promise<Array<{ id: string; tenantId: string }>> {
    return this.db.multiagentRun.findMany({
      where: { status: { not: 'completed' } },
      select: { id: true, tenantId: true },
      orderBy: { createdAt: 'asc' },
      take: limit,
    });
  }

  async markRunning(id: string): Promise<void> {
    await this.db.multiagentRun.updateMany({ where: { id, status: 'queued' }, data: { status: 'running' } });
  }

  /** Replaces entry `index` in place: concurrent entries of one run never overwrite each other. */
  async saveEntry(id: string, index: number, entry: MultiagentRunEntry): Promise<void> {
    await this.db.$executeRaw`
      UPDATE multiagent_runs SET results = jsonb_set(results, ARRAY[${String(index)}], ${JSON.stringify(entry)}::jsonb), updated_at = now()
       WHERE id = ${id}`;
  }

  async complete(id: string): Promise<void> {
    await this.db.multiagentRun.updateMany({
      where: { id, status: { not: 'completed' } },
      data: { status: 'completed', finishedAt: this.clock.now() },
    });
  }
}

function toStored(row: RunRow): StoredRun {
  return {
    actor: row.actor as unknown as Actor,
    run: {
      id: row.id,
      status: row.status as MultiagentRun['status'],
      message: row.message,
      environment_id: row.environmentId,
      parallel: row.parallel,
      results: row.results as unknown as MultiagentRunEntry[],
      created_at: row.createdAt.toISOString(),
      deadline_at: row.deadlineAt.toISOString(),
      finished_at: row.finishedAt?.toISOString() ?? null,
    },
  };
}
