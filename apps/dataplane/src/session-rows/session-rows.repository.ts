import { Inject, Injectable } from '@nestjs/common';
import type { Actor, NewSessionRow, SessionRowChanges } from '@agentry/contracts';
import { Prisma, type SessionStatus, type ServiceDatabase } from '@agentry/db';
import { CLOCK, DATABASE, type Clock } from '@agentry/platform';

/** Statuses in which a turn holds the session: it may be neither archived nor deleted. */
const BUSY_STATUSES: SessionStatus[] = ['running', 'rescheduling'];

/**
 * The session rows' definition fields, written on control's request (create, edit, archive, delete). The
 * run-time fields (status, lease, last_seq, usage) are written by the turn path, never here.
 */
@Injectable()
export class SessionRowsRepository {
  constructor(
    @Inject(DATABASE) private readonly db: ServiceDatabase<'dataplane'>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async insert(actor: Actor, session: NewSessionRow): Promise<string> {
    const row = await this.db.session.create({
      data: {
        ...session,
        spec: session.spec as Prisma.InputJsonObject,
        resources: session.resources as Prisma.InputJsonArray,
        budget: (session.budget ?? undefined) as Prisma.InputJsonObject | undefined,
        tenantId: actor.tenantId,
        namespaceId: actor.namespaceId,
        createdById: actor.userId,
        createdByApiKeyId: actor.apiKeyId,
      },
      select: { id: true },
    });
    return row.id;
  }

  async update(actor: Actor, id: string, changes: SessionRowChanges): Promise<boolean> {
    const { budget, spec, ...plain } = changes;
    const { count } = await this.db.session.updateMany({
      where: { id, tenantId: actor.tenantId, namespaceId: actor.namespaceId },
      data: {
        ...plain,
        ...(spec !== undefined ? { spec: spec as Prisma.InputJsonObject } : {}),
        ...(budget !== undefined
          ? { budget: budget === null ? Prisma.DbNull : (budget as Prisma.InputJsonObject) }
          : {}),
      },
    });
    return count === 1;
  }

  /** Archives unless the session is busy; false when nothing matched (busy, already archived or gone). */
  async archive(actor: Actor, id: string): Promise<boolean> {
    const { count } = await this.db.session.updateMany({
      where: {
        id,
        tenantId: actor.tenantId,
        namespaceId: actor.namespaceId,
        archivedAt: null,
        status: { notIn: BUSY_STATUSES },
      },
      data: { archivedAt: this.clock.now() },
    });
    return count === 1;
  }

  /** Un-archives; false when the session was not archived (or is not the actor's). */
  async restore(actor: Actor, id: string): Promise<boolean> {
    const { count } = await this.db.session.updateMany({
      where: { id, tenantId: actor.tenantId, namespaceId: actor.namespaceId, archivedAt: { not: null } },
      data: { archivedAt: null },
    });
    return count === 1;
  }

  /**
   * Deletes (events cascade) unless a turn is running or input still waits for one (an inbound event not yet
   * processed): the log of live work is never removed. The checks and the delete are one statement.
   */
  async delete(actor: Actor, id: string): Promise<boolean> {
    const count = await this.db.$executeRaw`
      DELETE FROM sessions s
      WHERE s.id = ${id} AND s.tenant_id = ${actor.tenantId} AND s.namespace_id = ${actor.namespaceId}
        AND s.parent_session_id IS NULL
        AND s.status::text <> ALL(${BUSY_STATUSES}::text[])
        AND NOT EXISTS (SELECT 1 FROM session_events e WHERE e.session_id = s.id AND e.processed_at IS NULL)`;
    return count === 1;
  }

  /** Stores `next` only if the list still equals `expected`: a concurrent edit makes this a no-op. */
  async replaceResources(actor: Actor, id: string, expected: unknown[], next: unknown[]): Promise<boolean> {
    const count = await this.db.$executeRaw`
      UPDATE sessions SET resources = ${JSON.stringify(next)}::jsonb, updated_at = now()
      WHERE id = ${id} AND tenant_id = ${actor.tenantId} AND namespace_id = ${actor.namespaceId}
        AND resources = ${JSON.stringify(expected)}::jsonb`;
    return count === 1;
  }

  /**
   * Deletes the environment's sessions unless a live (unarchived) one still uses it: then nothing is
   * deleted and the count of live sessions is returned. The check and the delete share one transaction.
   */
  async deleteForEnvironment(actor: Actor, environmentId: string): Promise<{ liveSessions: number }> {
    return this.db.$transaction(async (tx) => {
      const liveSessions = await tx.session.count({
        where: { environmentId, tenantId: actor.tenantId, archivedAt: null },
      });
      if (liveSessions > 0) return { liveSessions };
      await tx.session.deleteMany({ where: { environmentId, tenantId: actor.tenantId } });
      return { liveSessions: 0 };
    });
  }
}
