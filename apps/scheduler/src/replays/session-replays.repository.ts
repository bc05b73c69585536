import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, DATABASE, type Clock } from '@agentry/platform';
import type { Prisma, ServiceDatabase, SessionReplay as ReplayRow } from '@agentry/db';
import type { Actor, Replay, ReplayComparison, ReplayStatus } from '@agentry/contracts';

export interface StoredReplay {
  replay: Replay;
  actor: Actor;
  deadlineAt: Date;
}

/** The `session_replays` and `session_replay_batches` tables, owned by the scheduler. */
@Injectable()
export class SessionReplaysRepository {
  constructor(
    @Inject(DATABASE) private readonly db: ServiceDatabase<'scheduler'>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async create(data: {
    id: string;
    actor: Actor;
    sourceSessionId: string;
    agentId: string;
    agentVersion: number;
    batchId?: string;
    deadlineAt: Date;
  }): Promise<StoredReplay> {
    const row = await this.db.sessionReplay.create({
      data: {
        id: data.id,
        tenantId: data.actor.tenantId,
        namespaceId: data.actor.namespaceId,
        actor: data.actor,
        batchId: data.batchId ?? null,
        sourceSessionId: data.sourceSessionId,
        agentId: data.agentId,
        agentVersion: data.agentVersion,
        deadlineAt: data.deadlineAt,
      },
    });
    return toStored(row);
  }

  async createBatch(data: { id: string; actor: Actor; agentId: string; agentVersion: number }) {
    return this.db.sessionReplayBatch.create({
      data: {
        id: data.id,
        tenantId: data.actor.tenantId,
        namespaceId: data.actor.namespaceId,
        agentId: data.agentId,
        agentVersion: data.agentVersion,
      },
    });
  }

  async find(id: string): Promise<StoredReplay | null> {
    const row = await this.db.sessionReplay.findUnique({ where: { id } });
    return row ? toStored(row) : null;
  }

  /** A replay of the caller's namespace, or null. */
  async findForActor(actor: Actor, id: string): Promise<Replay | null> {
    const row = await this.db.sessionReplay.findFirst({
      where: { id, tenantId: actor.tenantId, namespaceId: actor.namespaceId },
    });
    return row ? toStored(row).replay : null;
  }

  /** Newest first; `afterId` is the last id of the previous page. */
  async list(
    actor: Actor,
    filter: { sourceSessionId?: string; batchId?: string; afterId?: string; limit: number },
  ): Promise<Replay[]> {
    const rows = await this.db.sessionReplay.findMany({
      where: {
        tenantId: actor.tenantId,
        namespaceId: actor.namespaceId,
        ...(filter.sourceSessionId ? { sourceSessionId: filter.sourceSessionId } : {}),
        ...(filter.batchId ? { batchId: filter.batchId } : {}),
        ...(filter.afterId ? { id: { lt: filter.afterId } } : {}),
      },
      orderBy: { id: 'desc' },
      take: filter.limit,
    });
    return rows.map((row) => toStored(row).replay);
  }

  async findBatchForActor(actor: Actor, id: string) {
    return this.db.sessionReplayBatch.findFirst({
      where: { id, tenantId: actor.tenantId, namespaceId: actor.namespaceId },
    });
  }

  async batchReplays(batchId: string): Promise<Replay[]> {
    const rows = await this.db.sessionReplay.findMany({ where: { batchId }, orderBy: { id: 'asc' } });
    return rows.map((row) => toStored(row).replay);
  }

  /** Replays a crash or a lost queue left running (each is queued again at start-up). */
  async unfinished(limit: number): Promise<Array<{ id: string; tenantId: string }>> {
    return this.db.sessionReplay.findMany({
      where: { status: 'running' },
      select: { id: true, tenantId: true },
      orderBy: { createdAt: 'asc' },
      take: limit,
    });
  }

  /** Records the replay's session once; a resumed run finds it here. */
  async setReplaySession(id: string, sessionId: string): Promise<void> {
    await this.db.sessionReplay.updateMany({
      where: { id, replaySessionId: null },
      data: { replaySessionId: sessionId },
    });
  }

  /** The comparison of the turns replayed so far, while the replay runs. */
  async saveProgress(id: string, comparison: ReplayComparison): Promise<void> {
    await this.db.sessionReplay.updateMany({
      where: { id, status: 'running' },
      data: { comparison: comparison as unknown as Prisma.InputJsonValue },
    });
  }

  /** Ends a running replay; one that already ended keeps its result. */
  async finish(
    id: string,
    status: Exclude<ReplayStatus, 'running'>,
    result: { comparison?: ReplayComparison; error?: string },
  ): Promise<void> {
    await this.db.sessionReplay.updateMany({
      where: { id, status: 'running' },
      data: {
        status,
        error: result.error ?? null,
        ...(result.comparison ? { comparison: result.comparison as unknown as Prisma.InputJsonValue } : {}),
        finishedAt: this.clock.now(),
      },
    });
  }
}

function toStored(row: ReplayRow): StoredReplay {
  return {
    actor: row.actor as unknown as Actor,
    deadlineAt: row.deadlineAt,
    replay: {
      type: 'session_replay',
      id: row.id,
      source_session_id: row.sourceSessionId,
      replay_session_id: row.replaySessionId,
      batch_id: row.batchId,
      agent: { id: row.agentId, version: row.agentVersion },
      status: row.status as ReplayStatus,
      error: row.error,
      comparison: (row.comparison as unknown as ReplayComparison | null) ?? null,
      created_at: row.createdAt.toISOString(),
      finished_at: row.finishedAt?.toISOString() ?? null,
    },
  };
}
