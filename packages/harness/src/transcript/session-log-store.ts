import type { PersistedHarnessEvent } from '../loop/harness-events.js';
import type { SearchLine } from '../memory/keyword-search.js';

/** One searchable line of a session log: which session, which line, its text and its event type. */
export type SessionLogLine = SearchLine & { kind: string };

/** Where a run's events are recorded for later runs, and where `session_search` looks for them. */
export interface SessionLogStore {
  /** Records persisted events of a run; appending an event id twice records it once. */
  append(
    run: { agentId: string; sessionId: string },
    events: PersistedHarnessEvent[],
    now: Date,
  ): Promise<void>;
  /** Every line of the agent's session logs, oldest session first. */
  lines(agentId: string): Promise<SessionLogLine[]>;
}
