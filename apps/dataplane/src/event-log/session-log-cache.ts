import type { StoredEvent } from '@agentry/contracts';
import { toStoredEvent } from './event-row.mapper.js';
import type { SessionEventsRepository } from './session-events.repository.js';

/** The event a compaction leaves: the conversation is rebuilt from the last one on. */
export const COMPACTION_EVENT = 'agent.thread_context_compacted';

/**
 * The seq a session's live log starts after, as SQL over `session_events c` rows of session `sessionParam`:
 * the last compaction, or what its turn had read when it compacted (`context_through_seq`) if that was
 * earlier. Input that arrived during the compacting turn sits between the two; that turn never read it.
 */
export function liveLogAfterSql(sessionParam: string, typeParam: string): string {
  return `coalesce((SELECT least(c.seq - 1, coalesce((c.payload ->> 'context_through_seq')::bigint, c.seq - 1))
    FROM session_events c WHERE c.session_id = ${sessionParam} AND c.type = ${typeParam} ORDER BY c.seq DESC LIMIT 1), 0)`;
}

/**
 * The live part of the event logs of recently run sessions: from the last compaction on, which is
 * all a turn needs to rebuild the conversation (see `buildConversation`). A turn reads only what was
 * appended since it last looked, and a compaction drops everything before it, so neither the read
 * nor the rebuild grows with the length of the session. Postgres stays the source of truth: every
 * read asks for the events after the cached tail, whoever wrote them, so a replica that ran nothing
 * of the session or a cache that was evicted reads from the last compaction. Least recently used
 * sessions are dropped first.
 */
export class SessionLogCache {
  private readonly logs = new Map<string, StoredEvent[]>();

  constructor(
    private readonly events: SessionEventsRepository,
    private readonly capacity: number,
  ) {}

  async read(sessionId: string): Promise<StoredEvent[]> {
    const cached = this.logs.get(sessionId);
    const fresh = cached
      ? await this.events.after(sessionId, cached.at(-1)?.seq ?? 0)
      : await this.events.liveLog(sessionId);
    const log = fromLastCompaction(
      fresh.length ? (cached ?? []).concat(fresh.map(toStoredEvent)) : (cached ?? []),
    );
    this.keep(sessionId, log);
    return log;
  }

  /**
   * Where a read of this session's log should start: after the cached tail, or from the last compaction
   * (`null`) when nothing is cached. For a read done elsewhere (the lease statement), handed to `extend`.
   */
  readFrom(sessionId: string): number | null {
    const cached = this.logs.get(sessionId);
    return cached ? (cached.at(-1)?.seq ?? 0) : null;
  }

  /**
   * The log with `fresh`, the events read after `from` (see `readFrom`), and kept. Events this replica
   * remembered after `from` meanwhile are in `fresh` too, so they are dropped from the cached part.
   */
  extend(sessionId: string, fresh: StoredEvent[], from: number | null): StoredEvent[] {
    const cached = from === null ? [] : (this.logs.get(sessionId) ?? []).filter((e) => e.seq <= from);
    const log = fromLastCompaction(cached.concat(fresh));
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

/** The log from the last compaction on, with the input that arrived during the compacting turn before it. */
function fromLastCompaction(log: StoredEvent[]): StoredEvent[] {
  const last = log.findLastIndex((e) => e.event.type === COMPACTION_EVENT);
  if (last <= 0) return log;
  const through = (log[last]!.event as unknown as { context_through_seq?: unknown }).context_through_seq;
  const unread = typeof through === 'number' ? log.findIndex((e) => e.seq > through) : last;
  return log.slice(unread >= 0 ? Math.min(unread, last) : last);
}
