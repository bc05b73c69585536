import { z } from 'zod';
import { ActorSchema } from '../nats/actor.js';
import { rpcSubject, V1 } from '../nats/subject.js';
import { MonetaryAmountSchema } from '../events/outbound-events.js';

export const USAGE_GROUP_KEYS = ['agent', 'session', 'model', 'day'] as const;

const isoDate = z.iso.datetime({ offset: true }).or(z.iso.date());

/** `GET /v1/usage`: settled model usage of the caller's tenant, grouped and filtered. Agentry extension. */
export const UsageQuerySchema = z.strictObject({
  /** Comma-separated subset of agent, session, model, day (UTC); empty sums everything. */
  group_by: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const keys = (raw ?? '')
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean);
      for (const key of keys) {
        if (!(USAGE_GROUP_KEYS as readonly string[]).includes(key)) {
          ctx.addIssue({
            code: 'custom',
            message: `group_by: "${key}" is not one of ${USAGE_GROUP_KEYS.join(', ')}`,
          });
          return z.NEVER;
        }
      }
      return [...new Set(keys)] as Array<(typeof USAGE_GROUP_KEYS)[number]>;
    }),
  agent_id: z.string().min(1).optional(),
  session_id: z.string().min(1).optional(),
  /** Inclusive lower bound (ISO date or date-time). */
  starting_at: isoDate.optional(),
  /** Exclusive upper bound (ISO date or date-time). */
  ending_at: isoDate.optional(),
});
export type UsageQuery = z.output<typeof UsageQuerySchema>;

export const UsageRowSchema = z.object({
  agent_id: z.string().nullable().optional(),
  session_id: z.string().nullable().optional(),
  model: z.string().nullable().optional(),
  /** UTC day, `YYYY-MM-DD`. */
  day: z.string().optional(),
  model_requests: z.number().int().nonnegative(),
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  cache_read_input_tokens: z.number().int().nonnegative(),
  cache_creation_input_tokens: z.number().int().nonnegative(),
  list_cost: MonetaryAmountSchema,
});
export type UsageRow = z.infer<typeof UsageRowSchema>;

export const UsageReportSchema = z.object({ data: z.array(UsageRowSchema) });
export type UsageReport = z.infer<typeof UsageReportSchema>;

/** The query as it travels to the dataplane (already parsed by the gateway). */
const UsageQueryRpcSchema = z.object({
  group_by: z.array(z.enum(USAGE_GROUP_KEYS)).default([]),
  agent_id: z.string().min(1).optional(),
  session_id: z.string().min(1).optional(),
  starting_at: isoDate.optional(),
  ending_at: isoDate.optional(),
});

export const UsageSubjects = {
  query: rpcSubject(
    'dataplane.usage.query',
    z.object({ v: V1, actor: ActorSchema, query: UsageQueryRpcSchema }),
    UsageReportSchema,
  ),
} as const;
