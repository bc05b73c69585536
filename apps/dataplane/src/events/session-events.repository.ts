import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import { Prisma, type PrismaClient, type SessionEvent as SessionEventRow } from '@agentry/db';
import { AppError } from '@agentry/contracts';

export interface NewEvent {
  id: string;
  type: string;
  payload: Record<string, unknown>;
  /** Inbound events wait in the inbox (null); events the platform emits are born processed. */
  processed: boolean;
}

/** Who may append: a client scoped to a namespace, or the turn runner holding lease `token`. */
export type AppendGuard =
  | { kind: 'client'; tenantId: string; namespaceId: string }
  | { kind: 'turn'; tenantId: string; token: bigint };

type Tx = Prisma.TransactionClient;

/**
 * The append-only event log. `seq` comes from `sessions.last_seq`, bumped in the same transaction as
 * the insert: the row lock serialises appenders, so a session's seq has no gap and no duplicate.
 */
@Injectable()
export class SessionEventsRepository {
  constructor(@Inject(DATABASE) private readonly db: PrismaClient) {}

  append(sessionId: string, guard: AppendGuard, events: NewEvent[]): Promise<SessionEventRow[]> {
    return this.db.$transaction((tx) => this.appendIn(tx, sessionId, guard, events));
  }

  async appendIn(tx: Tx, sessionId: string, guard: AppendGuard, events: NewEvent[]): Promise<SessionEventRow[]> {
    if (events.length === 0) return [];
    const scope =
      guard.kind === 'client'
        ? Prisma.sql`AND namespace_id = ${guard.namespaceId} AND archived_at IS NULL`
        : Prisma.sql`AND lease_token = ${guard.token}`;
    const bumped = await tx.$queryRaw<Array<{ last_seq: bigint }>>`
      UPDATE sessions SET last_seq = last_seq + ${events.length}, updated_at = now()
      WHERE id = ${sessionId} AND tenant_id = ${guard.tenantId} ${scope}
      RETURNING last_seq`;
    const last = bumped[0]?.last_seq;
    if (last === undefined) throw await this.whyNotAppendable(tx, sessionId, guard);
    const first = last - BigInt(events.length) + 1n;
    const now = new Date();
    return tx.sessionEvent.createManyAndReturn({
      data: events.map((event, index) => ({
        id: event.id,
        tenantId: guard.tenantId,
        sessionId,
        seq: first + BigInt(index),
        type: event.type,
        payload: event.payload as Prisma.InputJsonObject,
        processedAt: event.processed ? now : null,
      })),
    });
  }

  async list(
    sessionId: string,
    options: { afterSeq: number; beforeSeq?: number; limit: number; order: 'asc' | 'desc'; types?: string[] },
  ): Promise<SessionEventRow[]> {
    return this.db.sessionEvent.findMany({
      where: {
        sessionId,
        seq: { gt: BigInt(options.afterSeq), ...(options.beforeSeq ? { lt: BigInt(options.beforeSeq) } : {}) },
        ...(options.types?.length ? { type: { in: options.types } } : {}),
      },
      orderBy: { seq: options.order },
      take: options.limit,
    });
  }

  /** Every event of a session in order: the state a turn is rebuilt from. */
  all(sessionId: string): Promise<SessionEventRow[]> {
    return this.db.sessionEvent.findMany({ where: { sessionId }, orderBy: { seq: 'asc' } });
  }

  /** Inbound events not yet consumed by a turn, in seq order. */
  inbox(sessionId: string): Promise<SessionEventRow[]> {
    return this.db.sessionEvent.findMany({ where: { sessionId, processedAt: null }, orderBy: { seq: 'asc' } });
  }

  async markProcessed(tx: Tx, sessionId: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await tx.sessionEvent.updateMany({ where: { sessionId, id: { in: ids }, processedAt: null }, data: { processedAt: new Date() } });
  }

  private async whyNotAppendable(tx: Tx, sessionId: string, guard: AppendGuard): Promise<AppError> {
    const session = await tx.session.findFirst({ where: { id: sessionId, tenantId: guard.tenantId } });
    if (guard.kind === 'turn') {
      return new AppError('CONFLICT', `Turn lease on session ${sessionId} was lost (fencing token ${guard.token})`);
    }
    if (!session || session.namespaceId !== guard.namespaceId) return new AppError('NOT_FOUND', `Session ${sessionId} not found`);
    return new AppError('INVALID_REQUEST', `Session ${sessionId} is archived and accepts no events`);
  }
}
