import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import type { ServiceDatabase } from '@agentry/db';

/** A deleted session, named for the workers that keep things of it outside the database. */
type PurgedSession = { id: string; tenantId: string };

@Injectable()
export class ArchivedSessionsRepository {
  constructor(@Inject(DATABASE) private readonly db: ServiceDatabase<'dataplane'>) {}

  /**
   * Deletes up to `limit` sessions archived before `cutoff` and not written since (their threads and
   * events go with them by cascade). Never a session whose own or thread's turn is running or that has
   * input not yet processed — the same rule a user's delete obeys — and a row a writer holds right now is
   * left for the next sweep.
   */
  async purgeArchived(cutoff: Date, limit: number): Promise<Array<{ id: string; tenantId: string }>> {
    return this.db.$transaction(async (tx) => {
      const expired = await tx.$queryRaw<PurgedSession[]>`
        SELECT s.id, s.tenant_id AS "tenantId" FROM sessions s
        WHERE s.parent_session_id IS NULL
          AND s.archived_at IS NOT NULL AND s.archived_at < ${cutoff} AND s.updated_at < ${cutoff}
          AND NOT EXISTS (
            SELECT 1 FROM sessions r
            WHERE (r.id = s.id OR r.parent_session_id = s.id)
              AND (r.status IN ('running', 'rescheduling') OR r.updated_at >= ${cutoff}
                OR EXISTS (SELECT 1 FROM session_events e WHERE e.session_id = r.id AND e.processed_at IS NULL)))
        ORDER BY s.archived_at, s.id
        LIMIT ${limit}
        FOR UPDATE OF s SKIP LOCKED`;
      if (!expired.length) return [];
      await tx.$executeRaw`DELETE FROM sessions WHERE id = ANY(${expired.map((s) => s.id)}::text[])`;
      return expired;
    });
  }
}
