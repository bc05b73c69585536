import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import type { ServiceDatabase } from '@agentry/db';

export interface PurgedLogs {
  sessionIds: string[];
  events: number;
}

@Injectable()
export class EndedLogsRepository {
  constructor(@Inject(DATABASE) private readonly db: ServiceDatabase<'dataplane'>) {}

  /**
   * Deletes the events (its threads' included) of up to `limit` sessions archived, or terminated, before
   * `cutoff`. A session whose own or thread's turn is running, or with input not yet processed, is never
   * chosen; a session row locked by a writer right now is skipped until the next sweep. The session rows
   * stay: only their logs go.
   */
  async purgeEnded(cutoff: Date, limit: number): Promise<PurgedLogs> {
    return this.db.$transaction(async (tx) => {
      const expired = await tx.$queryRaw<Array<{ id: string }>>`
        SELECT s.id FROM sessions s
        WHERE s.parent_session_id IS NULL
          AND ((s.archived_at IS NOT NULL AND s.archived_at < ${cutoff}) OR (s.status = 'terminated' AND s.updated_at < ${cutoff}))
          AND EXISTS (SELECT 1 FROM session_events e WHERE e.session_id = s.id)
          AND NOT EXISTS (
            SELECT 1 FROM sessions r
            WHERE (r.id = s.id OR r.parent_session_id = s.id)
              AND (r.status IN ('running', 'rescheduling')
                OR EXISTS (SELECT 1 FROM session_events e WHERE e.session_id = r.id AND e.processed_at IS NULL)))
        ORDER BY s.id
        LIMIT ${limit}
        FOR UPDATE OF s SKIP LOCKED`;
      const sessionIds = expired.map((row) => row.id);
      if (!sessionIds.length) return { sessionIds, events: 0 };
      const events = await tx.$executeRaw`
        DELETE FROM session_events e USING sessions r
        WHERE e.session_id = r.id AND (r.id = ANY(${sessionIds}::text[]) OR r.parent_session_id = ANY(${sessionIds}::text[]))`;
      // Idempotency keys name events that are gone now.
      await tx.$executeRaw`
        DELETE FROM session_event_keys k USING sessions r
        WHERE k.session_id = r.id AND (r.id = ANY(${sessionIds}::text[]) OR r.parent_session_id = ANY(${sessionIds}::text[]))`;
      return { sessionIds, events };
    });
  }
}
