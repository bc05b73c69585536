import { z } from 'zod';
import {
  IsoDateTimeSchema,
  ListParamsSchema,
  QueryBooleanSchema,
  queryArraySchema,
} from '../common/common.js';

/** CMA dreams (`/v1/dreams`): a job that rewrites a memory store from one call of a model. */
const DreamStatusSchema = z.enum(['pending', 'running', 'completed', 'failed', 'canceled']);
export type DreamStatus = z.infer<typeof DreamStatusSchema>;

const MemoryStoreInputSchema = z.strictObject({
  type: z.literal('memory_store'),
  memory_store_id: z.string().min(1),
});
const SessionsInputSchema = z.strictObject({
  type: z.literal('sessions'),
  session_ids: z
    .array(z.string().min(1))
    .min(1, 'session_ids must name at least one session')
    .max(100, 'session_ids may name at most 100 sessions')
    .refine((ids) => new Set(ids).size === ids.length, 'session_ids must not repeat a session'),
});
const DreamInputSchema = z.discriminatedUnion('type', [MemoryStoreInputSchema, SessionsInputSchema]);
export type DreamInput = z.infer<typeof DreamInputSchema>;

const DreamOutputBehaviorSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('create_new') }),
  z.strictObject({ type: z.literal('update_existing'), memory_store_id: z.string().min(1) }),
]);
export type DreamOutputBehavior = z.infer<typeof DreamOutputBehaviorSchema>;

const ModelIdSchema = z.string().min(1).max(256);
const DreamModelSchema = z.object({ id: z.string(), speed: z.enum(['standard', 'fast']).optional() });

export const CreateDreamRequestSchema = z.strictObject({
  inputs: z
    .array(DreamInputSchema)
    .refine(
      (inputs) => inputs.filter((i) => i.type === 'memory_store').length === 1,
      'inputs must hold exactly one memory_store entry',
    )
    .refine(
      (inputs) => inputs.filter((i) => i.type === 'sessions').length <= 1,
      'inputs may hold at most one sessions entry',
    ),
  model: z.union([
    ModelIdSchema,
    z.strictObject({
      id: ModelIdSchema,
      speed: z.literal('standard', { message: 'model.speed: dreams accept only standard' }).nullish(),
    }),
  ]),
  instructions: z.string().min(1).max(4096).nullish(),
  output_behavior: DreamOutputBehaviorSchema.optional(),
});
export type CreateDreamRequest = z.infer<typeof CreateDreamRequestSchema>;

const DreamUsageSchema = z.object({
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  cache_creation_input_tokens: z.number().int(),
  cache_read_input_tokens: z.number().int(),
});
export type DreamUsage = z.infer<typeof DreamUsageSchema>;

export const DreamSchema = z.object({
  id: z.string(),
  type: z.literal('dream'),
  status: DreamStatusSchema,
  inputs: z.array(DreamInputSchema),
  instructions: z.string().nullable(),
  model: DreamModelSchema,
  output_behavior: DreamOutputBehaviorSchema,
  outputs: z.array(z.object({ type: z.literal('memory_store'), memory_store_id: z.string() })),
  session_id: z.string().nullable(),
  error: z.object({ type: z.string(), message: z.string() }).nullable(),
  usage: DreamUsageSchema,
  created_at: z.string(),
  ended_at: z.string().nullable(),
  archived_at: z.string().nullable(),
});
export type Dream = z.infer<typeof DreamSchema>;

export const ListDreamsParamsSchema = ListParamsSchema.extend({
  statuses: queryArraySchema(DreamStatusSchema).optional(),
  include_archived: QueryBooleanSchema.optional(),
  'created_at[gt]': IsoDateTimeSchema.optional(),
  'created_at[lt]': IsoDateTimeSchema.optional(),
});
export type ListDreamsParams = z.infer<typeof ListDreamsParamsSchema>;
