import type { StoredEvent } from '@agentry/contracts';
import { z } from 'zod';

/** What the gateway needs of a live event to order and render it; everything else is passed on as sent. */
const LiveEventShape = z.object({
  seq: z.number().int().positive(),
  event: z.looseObject({ id: z.string(), type: z.string(), created_at: z.string() }),
});

/**
 * A live event as the dataplane announced it, by its shape: a positive seq and an event with its id, type and
 * creation time. The dataplane wrote it through the event log, which checks every event against its schema;
 * the full schema is not parsed again here for each event of each watched session (it was most of the
 * channel's work), and an event is passed on as sent, as the catch-up path passes the log's pages.
 */
export function liveEventOf(message: unknown): StoredEvent | null {
  return LiveEventShape.safeParse(message).success ? (message as StoredEvent) : null;
}
