import type { StoredEvent } from '@agentry/contracts';

/**
 * A live event as the dataplane announced it, by its shape: a positive seq and an event with its id, type and
 * creation time. The dataplane wrote it through the event log, which checks every event against its schema;
 * the full schema is not parsed again here for each event of each watched session (it was most of the
 * channel's work), and an event is passed on as sent, as the catch-up path passes the log's pages.
 */
export function liveEventOf(message: unknown): StoredEvent | null {
  if (typeof message !== 'object' || message === null) return null;
  const { seq, event } = message as { seq?: unknown; event?: unknown };
  if (!Number.isSafeInteger(seq) || (seq as number) < 1) return null;
  if (typeof event !== 'object' || event === null) return null;
  const { id, type, created_at: createdAt } = event as Record<string, unknown>;
  if (typeof id !== 'string' || typeof type !== 'string' || typeof createdAt !== 'string') return null;
  return message as StoredEvent;
}
