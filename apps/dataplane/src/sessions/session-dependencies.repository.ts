import { Injectable } from '@nestjs/common';
import { SqlPool } from '../sql/sql-pool.js';

/** What a session runs on and is no longer there: its environment or its agent, archived or deleted. */
export interface LostDependency {
  kind: 'environment' | 'agent';
  id: string;
  state: 'archived' | 'deleted';
}

interface Row {
  environment_id: string;
  agent_id: string;
  environment_exists: boolean;
  environment_archived: boolean;
  agent_exists: boolean;
  agent_archived: boolean;
}

/**
 * Reads whether a session's environment and agent still stand. The rows belong to the control service;
 * the dataplane only reads two facts of them, once as a turn starts, where a request to control would
 * add a round trip to every turn.
 */
@Injectable()
export class SessionDependenciesRepository {
  constructor(private readonly sql: SqlPool) {}

  async lost(sessionId: string): Promise<LostDependency | null> {
    const rows = await this.sql.query<Row>(
      'sessions.dependencies',
      `SELECT s.environment_id, s.agent_id,
         e.id IS NOT NULL AS environment_exists, e.archived_at IS NOT NULL AS environment_archived,
         a.id IS NOT NULL AS agent_exists, a.archived_at IS NOT NULL AS agent_archived
       FROM sessions s
       LEFT JOIN environments e ON e.id = s.environment_id
       LEFT JOIN agents a ON a.id = s.agent_id
       WHERE s.id = $1`,
      [sessionId],
    );
    const row = rows.rows[0];
    if (!row) return null;
    if (!row.environment_exists || row.environment_archived) {
      return { kind: 'environment', id: row.environment_id, state: row.environment_exists ? 'archived' : 'deleted' };
    }
    if (!row.agent_exists || row.agent_archived) return { kind: 'agent', id: row.agent_id, state: row.agent_exists ? 'archived' : 'deleted' };
    return null;
  }
}
