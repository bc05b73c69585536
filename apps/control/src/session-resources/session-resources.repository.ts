import { Inject, Injectable } from '@nestjs/common';
import { AppError, SessionRowSubjects, type Actor, type SessionResource } from '@agentry/contracts';
import type { Session, ServiceDatabase } from '@agentry/db';
import { DATABASE, RpcClient } from '@agentry/platform';
import { inNamespace } from '../sessions/sessions.repository.js';

/** How many times a change is recomputed when another edit of the same list won the race. */
const CHANGE_ATTEMPTS = 8;

/**
 * The `resources` list of a session row. The row belongs to the dataplane, which stores a new list only if
 * the one this change was computed from is still current, so concurrent edits do not lose each other.
 */
@Injectable()
export class SessionResourcesRepository {
  constructor(
    @Inject(DATABASE) private readonly db: ServiceDatabase<'control'>,
    private readonly rpc: RpcClient,
  ) {}

  /** Sessions are read by primary key and their scope checked on the row (see `SessionsRepository.find`). */
  async findSession(actor: Actor, sessionId: string): Promise<Session | null> {
    const row = await this.db.session.findUnique({ where: { id: sessionId } });
    return row && inNamespace(row, actor) ? row : null;
  }

  async findSessionOfTenant(
    tenantId: string,
    sessionId: string,
  ): Promise<Pick<Session, 'resources' | 'namespaceId'> | null> {
    const row = await this.db.session.findUnique({
      where: { id: sessionId },
      select: { resources: true, namespaceId: true, tenantId: true },
    });
    return row?.tenantId === tenantId ? { resources: row.resources, namespaceId: row.namespaceId } : null;
  }

  /**
   * Applies `change` to the current list and stores its result; null when the session is not the actor's.
   * `change` runs again on a fresh read when a concurrent edit got in first, so its side effects must be
   * idempotent.
   */
  async change<T>(
    actor: Actor,
    sessionId: string,
    change: (current: SessionResource[], row: Session) => Promise<{ next: SessionResource[]; result: T }>,
  ): Promise<T | null> {
    for (let attempt = 0; attempt < CHANGE_ATTEMPTS; attempt++) {
      const row = await this.findSession(actor, sessionId);
      if (!row) return null;
      const expected = row.resources as unknown as SessionResource[];
      const { next, result } = await change(expected, row);
      const { changed } = await this.rpc.request(SessionRowSubjects.replaceResources, {
        actor,
        id: sessionId,
        expected,
        next,
      });
      if (changed) return result;
    }
    throw new AppError(
      'CONFLICT',
      `Session ${sessionId}: its resources kept changing concurrently; retry the request`,
    );
  }
}
