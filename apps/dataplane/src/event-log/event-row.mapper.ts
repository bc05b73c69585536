import type { SessionEvent, StoredEvent } from '@agentry/contracts';
import type { EventRow } from './event-row.js';

/** A log row in its wire shape: envelope and payload flattened, as CMA returns events. */
export function toStoredEvent(row: EventRow): StoredEvent {
  const event = {
    ...row.payload,
    type: row.type,
    id: row.id,
    processed_at: row.processedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  } as unknown as SessionEvent;
  return { seq: row.seq, event };
}
