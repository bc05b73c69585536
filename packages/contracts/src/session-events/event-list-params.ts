import { z } from 'zod';
import { queryArraySchema } from '../common/common.js';
import { DeltaTypeSchema } from './stream-events.js';

/** `GET /v1/sessions/{id}/events/stream`; without `after` or `Last-Event-ID` the stream is live-only. */
export const StreamEventsParamsSchema = z.object({
  event_deltas: queryArraySchema(DeltaTypeSchema).optional(),
  after: z.coerce.number().int().nonnegative().optional(),
});
