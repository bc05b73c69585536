import { Inject, Injectable } from '@nestjs/common';
import { ID_PREFIXES, newId } from '@agentry/contracts';
import { DATABASE } from '@agentry/platform';
import type { ServiceDatabase } from '@agentry/db';

export interface ReclaimedWork {
  id: string;
  environmentId: string;
  sessionId: string;
  state: 'queued' | 'stopped';
}

@Injectable()
export class StaleWorkRepository {
  constructor(@Inject(DATABASE) private readonly db: ServiceDatabase<'dataplane'>) {}

  /**
   * Work items whose holder stopped heartbeating: a claimed or running item goes back to the queue
   * (its lease and heartbeat cleared, so the old holder's next heartbeat fails its precondition); an
   * item that was asked to stop is stopped.
   */
  async reclaimExpired(limit: number): Promise<ReclaimedWork[]> {
    const rows = await this.db.$queryRaw<
      Array<{ id: string; environment_id: string; session_id: string; state: 'queued' | 'stopped' }>
    >`
      UPDATE work_items SET
        state = CASE WHEN state = 'stopping' THEN 'stopped'::work_item_state ELSE 'queued'::work_item_state END,
        stopped_at = CASE WHEN state = 'stopping' THEN now() ELSE stopped_at END,
        worker_id = NULL, last_heartbeat = NULL, heartbeat_expires_at = NULL, started_at = NULL, acked_at = NULL, updated_at = now()
      WHERE id IN (
        SELECT id FROM work_items
        WHERE state IN ('starting', 'active', 'stopping') AND heartbeat_expires_at < now()
        ORDER BY heartbeat_expires_at
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED)
      RETURNING id, environment_id, session_id, state::text AS state`;
    return rows.map((r) => ({
      id: r.id,
      environmentId: r.environment_id,
      sessionId: r.session_id,
      state: r.state,
    }));
  }

  /**
   * Queues a fresh item for a session that still waits on something (idle with `requires_action`)
   * and has no open item, e.g. after its worker vanished while stopping. Null when none was needed.
   */
  async requeueIfAwaitingAction(sessionId: string): Promise<{ id: string; environmentId: string } | null> {
    const rows = await this.db.$queryRaw<Array<{ id: string; environment_id: string }>>`
      INSERT INTO work_items (id, tenant_id, environment_id, session_id, state)
      SELECT ${newId(ID_PREFIXES.work)}, s.tenant_id, s.environment_id, s.id, 'queued' FROM sessions s
      WHERE s.id = ${sessionId} AND s.archived_at IS NULL AND s.status = 'idle'
        AND s.stop_reason->>'type' = 'requires_action'
      ON CONFLICT (session_id) WHERE state IN ('queued', 'starting', 'active') DO NOTHING
      RETURNING id, environment_id`;
    const row = rows[0];
    return row ? { id: row.id, environmentId: row.environment_id } : null;
  }
}
