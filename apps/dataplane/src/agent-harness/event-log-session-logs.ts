import { collectText, type SessionLogLine, type SessionLogStore } from '@agentry/harness';
import type { SessionEventsRepository } from '../event-log/session-events.repository.js';

/** Most log lines one search reads; the newest sessions beyond it are not searched. */
const SEARCH_WINDOW = 20_000;

/**
 * In the platform the event log is the session log: every event is already in Postgres, written by
 * the turn, so a run records nothing more, and `session_search` reads the agent's sessions from the log.
 */
export class EventLogSessionLogs implements SessionLogStore {
  constructor(
    private readonly events: SessionEventsRepository,
    private readonly tenantId: string,
  ) {}

  async append(): Promise<void> {}

  async lines(agentId: string): Promise<SessionLogLine[]> {
    const rows = await this.events.ofAgent(this.tenantId, agentId, SEARCH_WINDOW);
    return rows.map((row) => {
      const parts: string[] = [];
      collectText(row.payload, parts);
      return { path: row.sessionId, line: row.seq, text: parts.join(' '), kind: row.type };
    });
  }
}
