import { z } from 'zod';
import { IsoDateTimeSchema, ListParamsSchema } from '../common/common.js';
import { MonetaryAmountSchema } from '../session-events/outbound-events.js';

/** Agentry extension: re-running a recorded session's user inputs against another agent version. */

/** The most sessions one batch replays. */
const REPLAY_BATCH_MAX = 20;

const ReplayAgentSchema = z.strictObject({
  id: z.string().min(1, 'agent.id required'),
  version: z.number().int().min(1, 'agent.version must be at least 1'),
});

export const CreateReplayRequestSchema = z.strictObject({ agent: ReplayAgentSchema });
export type CreateReplayRequest = z.infer<typeof CreateReplayRequestSchema>;

export const CreateReplayBatchRequestSchema = z.strictObject({
  version: z.number().int().min(1, 'version must be at least 1'),
  last: z
    .number()
    .int('last must be a whole number')
    .min(1, 'last must be at least 1')
    .max(REPLAY_BATCH_MAX, `last may be at most ${REPLAY_BATCH_MAX}`),
});
export type CreateReplayBatchRequest = z.infer<typeof CreateReplayBatchRequestSchema>;

const ReplayToolCallSchema = z.object({ name: z.string(), input: z.record(z.string(), z.unknown()) });
export type ReplayToolCall = z.infer<typeof ReplayToolCallSchema>;

/** What one side (the original or the replay) did in one turn. */
const ReplayTurnSideSchema = z.object({
  /** Text of the turn's last `agent.message`, or null when the agent said nothing. */
  final_message: z.string().nullable(),
  /** Every tool call of the turn (built-in, MCP and custom), in order. */
  tool_calls: z.array(ReplayToolCallSchema),
  /** `session.error` events of the turn, and why it ended if it did not end with `end_turn`. */
  errors: z.array(z.object({ type: z.string(), message: z.string() })),
  /** The stop reason of the `session.status_idle` that ended the turn; null when it never went idle. */
  stop_reason: z.string().nullable(),
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  /** List cost of the turn's model calls, when the model has a price. */
  cost: MonetaryAmountSchema.nullable(),
  /** From the user message to the end of the turn. */
  latency_ms: z.number().nonnegative().nullable(),
});
export type ReplayTurnSide = z.infer<typeof ReplayTurnSideSchema>;

const ReplayVerdictSchema = z.enum(['same', 'changed', 'failed']);
export type ReplayVerdict = z.infer<typeof ReplayVerdictSchema>;

const ReplayTurnSchema = z.object({
  /** 1-based position of the turn (one user message and what the agent did until idle). */
  index: z.number().int().positive(),
  user_message: z.string(),
  original: ReplayTurnSideSchema,
  replay: ReplayTurnSideSchema.nullable(),
  verdict: ReplayVerdictSchema,
});
export type ReplayTurn = z.infer<typeof ReplayTurnSchema>;

const ReplaySummarySchema = z.object({
  turns: z.number().int().nonnegative(),
  same: z.number().int().nonnegative(),
  changed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
});
export type ReplaySummary = z.infer<typeof ReplaySummarySchema>;

const ReplayComparisonSchema = z.object({
  turns: z.array(ReplayTurnSchema),
  summary: ReplaySummarySchema,
});
export type ReplayComparison = z.infer<typeof ReplayComparisonSchema>;

const ReplayStatusSchema = z.enum(['running', 'completed', 'failed']);
export type ReplayStatus = z.infer<typeof ReplayStatusSchema>;

export const ReplaySchema = z.object({
  type: z.literal('session_replay'),
  id: z.string(),
  source_session_id: z.string(),
  /** The fresh session the inputs run in (null until it is created); it is a normal session. */
  replay_session_id: z.string().nullable(),
  batch_id: z.string().nullable(),
  agent: z.object({ id: z.string(), version: z.number().int() }),
  status: ReplayStatusSchema,
  /** Why a failed replay failed. */
  error: z.string().nullable(),
  /** The turn-by-turn comparison: of the turns replayed so far while running, of every turn once completed. */
  comparison: ReplayComparisonSchema.nullable(),
  created_at: IsoDateTimeSchema,
  finished_at: IsoDateTimeSchema.nullable(),
});
export type Replay = z.infer<typeof ReplaySchema>;

export const ReplayBatchSchema = z.object({
  type: z.literal('session_replay_batch'),
  id: z.string(),
  agent: z.object({ id: z.string(), version: z.number().int() }),
  /** `completed` once every replay of the batch has completed or failed. */
  status: z.enum(['running', 'completed']),
  replays: z.array(ReplaySchema),
  summary: z.object({
    replays: z.number().int().nonnegative(),
    running: z.number().int().nonnegative(),
    completed: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    /** Turn verdicts over every completed replay of the batch. */
    turns: ReplaySummarySchema,
  }),
  created_at: IsoDateTimeSchema,
});
export type ReplayBatch = z.infer<typeof ReplayBatchSchema>;

export const ListReplaysParamsSchema = ListParamsSchema.pick({ limit: true, page: true }).extend({
  /** Only replays of this source session. */
  session_id: z.string().min(1).optional(),
  batch_id: z.string().min(1).optional(),
});
export type ListReplaysParams = z.infer<typeof ListReplaysParamsSchema>;
