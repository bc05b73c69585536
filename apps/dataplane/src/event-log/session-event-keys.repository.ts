import { Injectable } from '@nestjs/common';
import { IDEMPOTENCY_KEY_RETENTION_MS } from '@agentry/contracts';
import { SqlPool } from '../sql/sql-pool.js';
import { EVENT_COLUMNS, type EventRow } from './event-row.js';

/** What an idempotency key of a session already holds: the request it was used for and its events. */
export interface KeyedAppend {
  requestHash: string;
  events: EventRow[];
}

/** Reads the idempotency keys that `SessionEventsRepository.appendKeyed` writes with the events. */
@Injectable()
export class SessionEventKeysRepository {
  constructor(private readonly sql: SqlPool) {}

  /** The live (not expired) append under `keyHash`, on a session of this tenant and namespace; null when none. */
  async find(
    sessionId: string,
    scope: { tenantId: string; namespaceId: string },
    keyHash: string,
  ): Promise<KeyedAppend | null> {
    const rows = await this.sql.query<EventRow & { requestHash: string }>(
      'event-keys.find',
      `SELECT k.request_hash AS "requestHash", e.${EVENT_COLUMNS.split(', ').join(', e.')}
       FROM session_event_keys k
       JOIN sessions s ON s.id = k.session_id AND s.tenant_id = $2 AND s.namespace_id = $3
       LEFT JOIN session_events e ON e.session_id = k.session_id AND e.id = ANY(k.event_ids)
       WHERE k.session_id = $1 AND k.key_hash = $4 AND k.created_at >= now() - make_interval(secs => $5::float8 / 1000)
       ORDER BY e.seq`,
      [sessionId, scope.tenantId, scope.namespaceId, keyHash, IDEMPOTENCY_KEY_RETENTION_MS],
    );
    const first = rows.rows[0];
    if (!first) return null;
    const events = rows.rows.filter((row) => row.id !== null).map(({ requestHash: _, ...event }) => event);
    return { requestHash: first.requestHash, events };
  }
}
