import { z } from 'zod';
import { TextBlockSchema } from './content-blocks.js';

/** Event types whose text may be previewed on the stream (`event_deltas[]=`). */
export const DeltaTypeSchema = z.enum(['agent.message', 'agent.thinking']);
export type DeltaType = z.infer<typeof DeltaTypeSchema>;

/** Opens a preview; `event.id` is the id the final persisted event will carry. */
export const EventStartSchema = z.object({
  type: z.literal('event_start'),
  event: z.object({ id: z.string(), type: DeltaTypeSchema }),
});

/** One chunk of preview text; a prefix of the final event's text, best effort, never persisted. */
export const EventDeltaSchema = z.object({
  type: z.literal('event_delta'),
  event_id: z.string(),
  delta: z.object({
    type: z.literal('content_delta'),
    content: TextBlockSchema,
    index: z.number().int().nonnegative().optional(),
  }),
});

const StreamOnlyEventSchema = z.discriminatedUnion('type', [EventStartSchema, EventDeltaSchema]);
export type StreamOnlyEvent = z.infer<typeof StreamOnlyEventSchema>;

/**
 * Previews as the dataplane publishes them (`delta.<sessionId>`): gathered for a few milliseconds
 * and sent as one message, in order, so a token costs no NATS message of its own.
 */
export const StreamOnlyBatchSchema = z.object({ events: z.array(StreamOnlyEventSchema).min(1) });
export type StreamOnlyBatch = z.infer<typeof StreamOnlyBatchSchema>;
