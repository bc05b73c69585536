import { z } from 'zod';
import { IsoDateTimeSchema, ListParamsSchema, queryArraySchema } from '../common/common.js';
import { SessionUsageSchema } from './sessions.js';

/** A thread of a multi-agent session: the primary agent's, or one per subagent (depth one). */
export const SessionThreadStatusSchema = z.enum(['running', 'idle', 'rescheduling', 'terminated']);

export const SessionThreadSchema = z.object({
  type: z.literal('session_thread'),
  id: z.string(),
  session_id: z.string(),
  parent_thread_id: z.string().nullable(),
  // A pinned agent snapshot, an advisor or an inline agent; only the discriminator is checked.
  agent: z.looseObject({ type: z.enum(['agent', 'advisor', 'inline']) }),
  status: SessionThreadStatusSchema,
  stats: z
    .object({
      active_seconds: z.number().nonnegative().optional(),
      duration_seconds: z.number().nonnegative().optional(),
      startup_seconds: z.number().nonnegative().optional(),
    })
    .nullable(),
  usage: SessionUsageSchema.nullable(),
  workflow_run_id: z.string().nullable(),
  created_at: IsoDateTimeSchema,
  updated_at: IsoDateTimeSchema,
  archived_at: IsoDateTimeSchema.nullable(),
});
export type SessionThread = z.infer<typeof SessionThreadSchema>;

export const ListSessionThreadsParamsSchema = ListParamsSchema.extend({
  statuses: queryArraySchema(SessionThreadStatusSchema).optional(),
});
export type ListSessionThreadsParams = z.infer<typeof ListSessionThreadsParamsSchema>;
