import type { SessionEvent as SessionEventRow } from '@agentry/db';
import type { SessionEvent, StoredEvent } from '@agentry/contracts';

/** A log row in its wire shape: envelope and payload flattened, as CMA returns events. */
export function toStoredEvent(row: SessionEventRow): StoredEvent {
  const payload = row.payload as Record<string, unknown>;
  const event = {
    ...payload,
    type: row.type,
    id: row.id,
    processed_at: row.processedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  } as unknown as SessionEvent;
  return { seq: Number(row.seq), event };
}
