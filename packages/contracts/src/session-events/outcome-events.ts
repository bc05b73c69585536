import { z } from 'zod';
import { ModelUsageSchema } from './outbound-events.js';

/** Verdicts a grader gives; every one but `needs_revision` ends the outcome. */
const OUTCOME_VERDICTS = [
  'satisfied',
  'needs_revision',
  'max_iterations_reached',
  'failed',
  'interrupted',
] as const;
export const OutcomeVerdictSchema = z.enum(OUTCOME_VERDICTS);
export type OutcomeVerdict = z.infer<typeof OutcomeVerdictSchema>;

/** Evaluate → revise cycles when `user.define_outcome` leaves `max_iterations` out (as CMA). */
export const DEFAULT_OUTCOME_MAX_ITERATIONS = 3;

const OutcomeRef = { outcome_id: z.string(), iteration: z.number().int().nonnegative() };

export const SpanOutcomeEvaluationStartPayloadSchema = z.object({
  type: z.literal('span.outcome_evaluation_start'),
  ...OutcomeRef,
});
/** A heartbeat while the grader works, so "evaluating" can be told from "stuck". */
export const SpanOutcomeEvaluationOngoingPayloadSchema = z.object({
  type: z.literal('span.outcome_evaluation_ongoing'),
  ...OutcomeRef,
});
export const SpanOutcomeEvaluationEndPayloadSchema = z.object({
  type: z.literal('span.outcome_evaluation_end'),
  ...OutcomeRef,
  outcome_evaluation_start_id: z.string(),
  result: OutcomeVerdictSchema,
  explanation: z.string(),
  usage: ModelUsageSchema,
});
