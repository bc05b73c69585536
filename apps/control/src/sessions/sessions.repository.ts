import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, RpcClient } from '@agentry/platform';
import type { Prisma, Session, SessionStatus, ServiceDatabase } from '@agentry/db';
import {
  SessionRowSubjects,
  type Actor,
  type NewSessionRow,
  type SessionRowChanges,
} from '@agentry/contracts';

export interface SessionFilter {
  agentId?: string;
  agentVersion?: number;
  deploymentId?: string;
  memoryStoreId?: string;
  statuses?: SessionStatus[];
  includeArchived: boolean;
  createdAt?: Prisma.DateTimeFilter;
}

/** Whether a row read by primary key belongs to the actor's tenant and namespace. */
export const inNamespace = (row: { tenantId: string; namespaceId: string }, actor: Actor): boolean =>
  row.tenantId === actor.tenantId && row.namespaceId === actor.namespaceId;

/** Statuses in which the dataplane owns the session: it may be neither archived nor deleted. */
export const BUSY_STATUSES: SessionStatus[] = ['running', 'rescheduling'];

/**
 * Session rows, read here and written by their owner, the dataplane, over NATS: control decides what a
 * session is, the dataplane stores it.
 */
@Injectable()
export class SessionsRepository {
  constructor(
    @Inject(DATABASE) private readonly db: ServiceDatabase<'control'>,
    private readonly rpc: RpcClient,
  ) {}

  async create(actor: Actor, session: NewSessionRow): Promise<string> {
    return (await this.rpc.request(SessionRowSubjects.insert, { actor, session })).id;
  }

  /**
   * By primary key, the scope checked on the row: with the scope in the query the planner could take the
   * namespace's index and read every session in it (docs/performance.md, "A session's row by its primary
   * key"). A thread's own run-time row is reached through its session's threads, never as a session.
   */
  async find(actor: Actor, id: string): Promise<Session | null> {
    const row = await this.db.session.findUnique({ where: { id } });
    return row && inNamespace(row, actor) && row.parentSessionId === null ? row : null;
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

  async update(actor: Actor, id: string, changes: SessionRowChanges): Promise<void> {
    await this.rpc.request(SessionRowSubjects.update, { actor, id, changes });
  }

  /** Archives unless the session is busy; false when nothing matched (busy, already archived or gone). */
  async archive(actor: Actor, id: string): Promise<boolean> {
    return (await this.rpc.request(SessionRowSubjects.archive, { actor, id })).changed;
  }

  /** Un-archives; false when the session was not archived (or is not the actor's). */
  async restore(actor: Actor, id: string): Promise<boolean> {
    return (await this.rpc.request(SessionRowSubjects.restore, { actor, id })).changed;
  }

  /** Deletes unless a turn is running or input still waits for one; false then. */
  async delete(actor: Actor, id: string): Promise<boolean> {
    return (await this.rpc.request(SessionRowSubjects.delete, { actor, id })).changed;
  }
}
