import { Injectable } from '@nestjs/common';
import { SqlPool } from '../sql/sql-pool.js';

/** Tells which sessions have ended, so what is held open for them can be let go before it idles out. */
@Injectable()
export class EndedSessionsRepository {
  constructor(private readonly sql: SqlPool) {}

  /** Of the given sessions, those deleted, archived or terminated. */
  async endedAmong(sessionIds: string[]): Promise<string[]> {
    if (sessionIds.length === 0) return [];
    const live = await this.sql.query<{ id: string }>(
      'sessions.live-among',
      `SELECT id FROM sessions WHERE id = ANY($1::text[]) AND archived_at IS NULL AND status::text <> 'terminated'`,
      [sessionIds],
    );
    const alive = new Set(live.rows.map((r) => r.id));
    return sessionIds.filter((id) => !alive.has(id));
  }
}
