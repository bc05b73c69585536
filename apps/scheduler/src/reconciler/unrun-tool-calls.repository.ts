import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import type { ServiceDatabase } from '@agentry/db';

export interface UnrunCalls {
  id: string;
  tenantId: string;
  toolUseIds: string[];
}

@Injectable()
export class UnrunToolCallsRepository {
  constructor(@Inject(DATABASE) private readonly db: ServiceDatabase<'scheduler'>) {}

  /**
   * Idle self-hosted sessions waiting on tool calls made more than `olderThanMs` ago that no worker has
   * taken: no work item of the session is claimed (starting, active or stopping), nothing in the inbox.
   * A call waiting for a confirmation (`ask`) is the confirmation timeout's, not this.
   */
  async find(olderThanMs: number, limit: number): Promise<UnrunCalls[]> {
    const rows = await this.db.$queryRaw<Array<{ id: string; tenant_id: string; calls: string[] }>>`
      SELECT s.id, s.tenant_id, array_agg(e.id ORDER BY e.seq) AS calls
      FROM sessions s
      JOIN session_events e ON e.session_id = s.id
        AND e.id IN (SELECT jsonb_array_elements_text(s.stop_reason -> 'event_ids'))
      WHERE s.archived_at IS NULL
        AND s.status = 'idle'
        AND s.stop_reason ->> 'type' = 'requires_action'
        AND s.spec -> 'environment' ->> 'type' = 'self_hosted'
        AND e.type = 'agent.tool_use'
        AND e.payload ->> 'evaluated_permission' = 'allow'
        AND e.created_at <= now() - make_interval(secs => ${olderThanMs / 1000}::float8)
        AND NOT EXISTS (SELECT 1 FROM session_events i WHERE i.session_id = s.id AND i.processed_at IS NULL)
        AND NOT EXISTS (SELECT 1 FROM work_items w WHERE w.session_id = s.id
          AND w.state IN ('starting', 'active', 'stopping'))
      GROUP BY s.id, s.tenant_id
      LIMIT ${limit}`;
    return rows.map((r) => ({ id: r.id, tenantId: r.tenant_id, toolUseIds: r.calls }));
  }
}
