import { Inject, Injectable } from '@nestjs/common';
import type { Actor, SessionResource } from '@agentry/contracts';
import type { PrismaClient, Session } from '@agentry/db';
import { DATABASE } from '@agentry/platform';

/** The `resources` list of a session row, changed under a row lock so concurrent edits do not lose each other. */
@Injectable()
export class SessionResourcesRepository {
  constructor(@Inject(DATABASE) private readonly db: PrismaClient) {}

  findSession(actor: Actor, sessionId: string): Promise<Session | null> {
    return this.db.session.findFirst({
      where: { id: sessionId, tenantId: actor.tenantId, namespaceId: actor.namespaceId },
    });
  }

  findSessionOfTenant(
    tenantId: string,
    sessionId: string,
  ): Promise<Pick<Session, 'resources' | 'namespaceId'> | null> {
    return this.db.session.findFirst({
      where: { id: sessionId, tenantId },
      select: { resources: true, namespaceId: true },
    });
  }

  /** Applies `change` to the current list and stores its result; null when the session is not the actor's. */
  async change<T>(
    actor: Actor,
    sessionId: string,
    change: (current: SessionResource[], row: Session) => Promise<{ next: SessionResource[]; result: T }>,
  ): Promise<T | null> {
    return this.db.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM sessions WHERE id = ${sessionId} FOR UPDATE`;
      const row = await tx.session.findFirst({
        where: { id: sessionId, tenantId: actor.tenantId, namespaceId: actor.namespaceId },
      });
      if (!row) return null;
      const { next, result } = await change(row.resources as unknown as SessionResource[], row);
      await tx.session.update({ where: { id: sessionId }, data: { resources: next as object[] } });
      return result;
    });
  }
}
