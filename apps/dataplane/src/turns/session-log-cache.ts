import type { StoredEvent } from '@agentry/contracts';
import { toStoredEvent } from '../events/event-row.mapper.js';
import type { SessionEventsRepository } from '../events/session-events.repository.js';

/**
 * The event logs of recently run sessions, so a turn reads only what was appended since it last
 * looked instead of the whole log. Postgres stays the source of truth: every read asks for the
 * events after the cached tail, whoever wrote them, so a replica that ran nothing of the session or
 * a cache that was evicted simply reads more. Least recently used sessions are dropped first.
 */
export class SessionLogCache {
  private readonly logs = new Map<string, StoredEvent[]>();

  constructor(
    private readonly events: SessionEventsRepository,
    private readonly capacity: number,
  ) {}

  async read(sessionId: string): Promise<StoredEvent[]> {
    const cached = this.logs.get(sessionId) ?? [];
    const tail = cached.at(-1)?.seq ?? 0;
    const fresh = (await this.events.after(sessionId, tail)).map(toStoredEvent);
    const log = fresh.length ? cached.concat(fresh) : cached;
    this.keep(sessionId, log);
    return log;
  }

  /** Extends a cached log with events just committed, only when they follow its tail exactly. */
  remember(sessionId: string, stored: StoredEvent[]): void {
    const cached = this.logs.get(sessionId);
    const first = stored[0];
    if (!cached || !first || first.seq !== (cached.at(-1)?.seq ?? 0) + 1) return;
    cached.push(...stored);
  }

  private keep(sessionId: string, log: StoredEvent[]): void {
    if (this.capacity === 0) return;
    this.logs.delete(sessionId);
    this.logs.set(sessionId, log);
    if (this.logs.size > this.capacity) this.logs.delete(this.logs.keys().next().value!);
  }
}
