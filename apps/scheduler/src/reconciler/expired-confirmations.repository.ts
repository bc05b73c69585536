import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import type { ServiceDatabase } from '@agentry/db';

export interface SessionRef {
  id: string;
  tenantId: string;
}

@Injectable()
export class ExpiredConfirmationsRepository {
  constructor(@Inject(DATABASE) private readonly db: ServiceDatabase<'scheduler'>) {}

  /**
   * Idle sessions waiting on an `ask` call made longer ago than their environment's
   * `tool_confirmation_timeout_seconds`, with nothing in the inbox (an answer already sent is left to its turn).
   */
  async find(limit: number): Promise<SessionRef[]> {
    const rows = await this.db.$queryRaw<Array<{ id: string; tenant_id: string }>>`
      SELECT s.id, s.tenant_id
      FROM sessions s
      WHERE s.archived_at IS NULL
        AND s.status = 'idle'
        AND s.stop_reason ->> 'type' = 'requires_action'
        AND (s.spec -> 'environment' -> 'config' ->> 'tool_confirmation_timeout_seconds') IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM session_events i WHERE i.session_id = s.id AND i.processed_at IS NULL)
        AND EXISTS (
          SELECT 1 FROM session_events e
          WHERE e.session_id = s.id
            AND e.id IN (SELECT jsonb_array_elements_text(s.stop_reason -> 'event_ids'))
            AND e.payload ->> 'evaluated_permission' = 'ask'
            AND e.created_at <= now() - make_interval(secs => (s.spec -> 'environment' -> 'config' ->> 'tool_confirmation_timeout_seconds')::float8))
      ORDER BY s.updated_at
      LIMIT ${limit}`;
    return rows.map((r) => ({ id: r.id, tenantId: r.tenant_id }));
  }
}
