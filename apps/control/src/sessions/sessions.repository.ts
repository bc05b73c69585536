import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, DATABASE, type Clock } from '@agentry/platform';
import type { Prisma, PrismaClient, Session, SessionStatus } from '@agentry/db';
import type { Actor } from '@agentry/contracts';

export interface NewSession {
  id: string;
  agentId: string;
  agentVersion: number;
  environmentId: string;
  title: string | null;
  metadata: Record<string, string>;
  spec: Record<string, unknown>;
  resources: unknown[];
  vaultIds: string[];
  budget: Record<string, unknown> | null;
  /** Set when a deployment run created the session. */
  deploymentId?: string | null;
}

export interface SessionFilter {
  agentId?: string;
  agentVersion?: number;
  deploymentId?: string;
  memoryStoreId?: string;
  statuses?: SessionStatus[];
  includeArchived: boolean;
  createdAt?: Prisma.DateTimeFilter;
}

export type SessionChanges = Pick<
  Prisma.SessionUpdateInput,
  'title' | 'metadata' | 'budget' | 'vaultIds' | 'spec'
>;

/** Statuses in which the dataplane owns the session: it may be neither archived nor deleted. */
export const BUSY_STATUSES: SessionStatus[] = ['running', 'rescheduling'];

@Injectable()
export class SessionsRepository {
  constructor(
    @Inject(DATABASE) private readonly db: PrismaClient,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  create(actor: Actor, data: NewSession): Promise<Session> {
    return this.db.session.create({
      data: {
        ...data,
        spec: data.spec as object,
        resources: data.resources as object[],
        budget: (data.budget ?? undefined) as object | undefined,
        tenantId: actor.tenantId,
        namespaceId: actor.namespaceId,
        createdById: actor.userId,
      },
    });
  }

  find(actor: Actor, id: string): Promise<Session | null> {
    // A thread's own run-time row is reached through its session's threads, never as a session.
    return this.db.session.findFirst({
      where: { id, tenantId: actor.tenantId, namespaceId: actor.namespaceId, parentSessionId: null },
    });
  }

  /** Rows after (`gt`) or before (`lt`) an edge id, read in `order` by id (ids sort by creation time). */
  list(
    actor: Actor,
    filter: SessionFilter,
    page: { limit: number; edge?: { gt?: string; lt?: string }; order: 'asc' | 'desc' },
  ): Promise<Session[]> {
    return this.db.session.findMany({
      where: {
        tenantId: actor.tenantId,
        namespaceId: actor.namespaceId,
        parentSessionId: null,
        ...(filter.includeArchived ? {} : { archivedAt: null }),
        ...(filter.agentId ? { agentId: filter.agentId } : {}),
        ...(filter.agentVersion ? { agentVersion: filter.agentVersion } : {}),
        ...(filter.deploymentId ? { deploymentId: filter.deploymentId } : {}),
        ...(filter.statuses?.length ? { status: { in: filter.statuses } } : {}),
        ...(filter.memoryStoreId
          ? {
              resources: {
                array_contains: [{ type: 'memory_store', memory_store_id: filter.memoryStoreId }],
              },
            }
          : {}),
        ...(filter.createdAt ? { createdAt: filter.createdAt } : {}),
        ...(page.edge ? { id: page.edge } : {}),
      },
      orderBy: { id: page.order },
      take: page.limit,
    });
  }

  async update(actor: Actor, id: string, changes: SessionChanges): Promise<void> {
    await this.db.session.updateMany({
      where: { id, tenantId: actor.tenantId, namespaceId: actor.namespaceId },
      data: changes,
    });
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
}
