import { Injectable } from '@nestjs/common';
import { SqlPool } from '../sql/sql-pool.js';
import type { Lease } from '../sessions/session-state.repository.js';
import type { OutcomeRecord } from './outcome-record.js';

/**
 * `sessions.outcome_evaluations`: one entry per defined outcome, replaced entry by entry in SQL so a
 * client adding an outcome and the turn grading another never overwrite each other.
 */
@Injectable()
export class OutcomeEvaluationsRepository {
  constructor(private readonly sql: SqlPool) {}

  async read(sessionId: string): Promise<OutcomeRecord[]> {
    const rows = await this.sql.query<{ outcomes: OutcomeRecord[] }>(
      'outcomes.read',
      'SELECT outcome_evaluations AS outcomes FROM sessions WHERE id = $1',
      [sessionId],
    );
    return rows.rows[0]?.outcomes ?? [];
  }

  /** Outcomes just sent by a client, listed as `pending` until a turn picks them up. */
  async addPending(sessionId: string, records: OutcomeRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.sql.query(
      'outcomes.add-pending',
      `UPDATE sessions SET outcome_evaluations = outcome_evaluations || (
         SELECT coalesce(jsonb_agg(r), '[]'::jsonb) FROM jsonb_array_elements($2::jsonb) AS r
         WHERE NOT outcome_evaluations @> jsonb_build_array(jsonb_build_object('outcome_id', r->>'outcome_id')))
       WHERE id = $1`,
      [sessionId, JSON.stringify(records)],
    );
  }

  /** Replaces (or adds) one entry, only while `lease` is the session's live fencing token. */
  async put(lease: Lease, record: OutcomeRecord): Promise<boolean> {
    const result = await this.sql.query(
      'outcomes.put',
      `UPDATE sessions SET outcome_evaluations = CASE
         WHEN outcome_evaluations @> jsonb_build_array(jsonb_build_object('outcome_id', $3::text)) THEN (
           SELECT jsonb_agg(CASE WHEN e->>'outcome_id' = $3 THEN $4::jsonb ELSE e END ORDER BY ord)
           FROM jsonb_array_elements(outcome_evaluations) WITH ORDINALITY AS t(e, ord))
         ELSE outcome_evaluations || jsonb_build_array($4::jsonb) END
       WHERE id = $1 AND lease_token = $2::bigint`,
      [lease.sessionId, lease.token.toString(), record.outcome_id, JSON.stringify(record)],
    );
    return result.rowCount === 1;
  }
}
