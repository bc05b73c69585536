import { SessionEventSchema } from '@agentry/contracts';
import { z } from 'zod';

/** Replies a controller assembles itself (not a subject's reply as it is), written down for the document. */

/** A page of a session's (or thread's) events; `next_page` is the cursor of the next one. */
export const SessionEventPageSchema = z.object({
  data: z.array(SessionEventSchema),
  next_page: z.string().nullable(),
});

/** The events a batch appended, as persisted. */
export const SentEventsSchema = z.object({ data: z.array(SessionEventSchema) });
