import { z } from 'zod';
import { IsoDateTimeSchema } from '../common/common.js';
import { SessionAgentParamsSchema } from './sessions.js';

/**
 * Agentry extension: a turn boundary of a session, kept so the session can be forked or rolled back to it.
 * `event_id` is the `session.status_idle` event that ended the turn; the session's log up to it and its
 * workspace as it was then are what a fork starts from.
 */
export const CheckpointSchema = z.object({
  type: z.literal('session_checkpoint'),
  id: z.string(),
  session_id: z.string(),
  event_id: z.string(),
  /** The position of `event_id` in the session's log. */
  seq: z.number().int(),
  created_at: IsoDateTimeSchema,
});
export type Checkpoint = z.infer<typeof CheckpointSchema>;

export const ListCheckpointsParamsSchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

/** Where a fork starts: a checkpoint's id, or the id of the event a checkpoint sits on. */
export const ForkSessionRequestSchema = z
  .strictObject({
    checkpoint: z.string().min(1).optional(),
    event_id: z.string().min(1).optional(),
    /** The agent the fork runs (the source session's by default). */
    agent: SessionAgentParamsSchema.optional(),
  })
  .refine((b) => (b.checkpoint === undefined) !== (b.event_id === undefined), {
    message: 'give exactly one of checkpoint or event_id',
  });
export type ForkSessionRequest = z.infer<typeof ForkSessionRequestSchema>;

export const RollbackSessionRequestSchema = z.strictObject({ checkpoint: z.string().min(1) });
