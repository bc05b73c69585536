import { z } from 'zod';
import { IsoDateTimeSchema, ListParamsSchema, queryArraySchema } from '../common/common.js';
import { DeltaTypeSchema } from './stream-events.js';

// Any CMA event type may be asked for (threads, workflows…); types Agentry never emits just match nothing.
const EventTypeFilterSchema = z
  .string()
  .regex(/^[a-z_]+\.[a-z_]+$/, 'types must be event types such as "agent.message"');
const SeqSchema = z.coerce.number().int().nonnegative();

/** `GET /v1/sessions/{id}/events`; `after` (a seq) is an Agentry extension. */
export const ListEventsParamsSchema = ListParamsSchema.extend({
  types: queryArraySchema(EventTypeFilterSchema).optional(),
  after: SeqSchema.optional(),
  'created_at[gt]': IsoDateTimeSchema.optional(),
  'created_at[gte]': IsoDateTimeSchema.optional(),
  'created_at[lt]': IsoDateTimeSchema.optional(),
  'created_at[lte]': IsoDateTimeSchema.optional(),
});
export type ListEventsParams = z.infer<typeof ListEventsParamsSchema>;

/** `GET /v1/sessions/{id}/events/stream`; without `after` or `Last-Event-ID` the stream is live-only. */
export const StreamEventsParamsSchema = z.object({
  event_deltas: queryArraySchema(DeltaTypeSchema).optional(),
  after: SeqSchema.optional(),
});
export type StreamEventsParams = z.infer<typeof StreamEventsParamsSchema>;
