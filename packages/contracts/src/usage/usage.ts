import { z } from 'zod';
import { ActorSchema } from '../nats/actor.js';
import { rpcSubject, V1 } from '../nats/subject.js';
import { MonetaryAmountSchema } from '../session-events/outbound-events.js';

const USAGE_GROUP_KEYS = ['agent', 'environment', 'session', 'model', 'day'] as const;

const USAGE_FORMATS = ['json', 'csv'] as const;

const isoDate = z.iso.datetime({ offset: true }).or(z.iso.date());

/** `GET /v1/usage`: settled model usage of the caller's tenant, grouped and filtered. Agentry extension. */
export const UsageQuerySchema = z.strictObject({
  /** Comma-separated subset of agent, environment, session, model, day (UTC); empty sums everything. */
  group_by: z
    .preprocess(
      (v) =>
        typeof v === 'string'
          ? v
              .split(',')
              .map((k) => k.trim())
              .filter(Boolean)
          : v,
      z.array(
        z.enum(USAGE_GROUP_KEYS, {
          error: (issue) => `"${String(issue.input)}" is not one of ${USAGE_GROUP_KEYS.join(', ')}`,
        }),
      ),
    )
    .default([]),
  agent_id: z.string().min(1).optional(),
  environment_id: z.string().min(1).optional(),
  session_id: z.string().min(1).optional(),
  /** Inclusive lower bound (ISO date or date-time). */
  starting_at: isoDate.optional(),
  /** Exclusive upper bound (ISO date or date-time). */
  ending_at: isoDate.optional(),
  /** `csv` answers `text/csv`, one line per row, with a header naming the columns. */
  format: z
    .enum(USAGE_FORMATS, { error: (i) => `"${String(i.input)}" is not one of ${USAGE_FORMATS.join(', ')}` })
    .default('json'),
});
export type UsageQuery = z.output<typeof UsageQuerySchema>;

const UsageRowSchema = z.object({
  agent_id: z.string().nullable().optional(),
  environment_id: z.string().nullable().optional(),
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

export const UsageReportSchema = z.object({ data: z.array(UsageRowSchema) });
export type UsageReport = z.infer<typeof UsageReportSchema>;

export const UsageSubjects = {
  query: rpcSubject(
    'dataplane.usage.query',
    z.object({ v: V1, actor: ActorSchema, query: UsageQuerySchema }),
    UsageReportSchema,
  ),
} as const;
