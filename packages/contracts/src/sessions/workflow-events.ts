import { z } from 'zod';

/** Events of workflow runs (CMA `workflow_run.*`), on the primary thread's stream. */

const RunFields = { workflow_run_id: z.string() };

const WorkflowRunErrorObjectSchema = z.object({
  type: z.enum([
    'timeout_error',
    'program_error',
    'unknown_error',
    'thread_limit_error',
    'max_workflow_runs_error',
  ]),
  message: z.string(),
});

export const WorkflowRunCreatedPayloadSchema = z.object({
  type: z.literal('workflow_run.created'),
  ...RunFields,
  name: z.string(),
  description: z.string().nullable(),
  phases: z.array(z.object({ id: z.string(), name: z.string(), description: z.string().nullable() })),
});
export const WorkflowRunStatusRunningPayloadSchema = z.object({
  type: z.literal('workflow_run.status_running'),
  ...RunFields,
});
export const WorkflowRunStatusIdlePayloadSchema = z.object({
  type: z.literal('workflow_run.status_idle'),
  ...RunFields,
});
export const WorkflowRunStatusEndedPayloadSchema = z.object({
  type: z.literal('workflow_run.status_ended'),
  ...RunFields,
  result: z.discriminatedUnion('type', [
    z.object({ type: z.literal('completed') }),
    z.object({ type: z.literal('stopped') }),
    z.object({ type: z.literal('error'), error: WorkflowRunErrorObjectSchema }),
  ]),
});
export const WorkflowRunErrorPayloadSchema = z.object({
  type: z.literal('workflow_run.error'),
  workflow_run_id: z.string().nullable(),
  error: WorkflowRunErrorObjectSchema,
});
export const WorkflowRunPhaseStartedPayloadSchema = z.object({
  type: z.literal('workflow_run.phase_started'),
  ...RunFields,
  workflow_run_phase_id: z.string(),
});
export const WorkflowRunPhaseEndedPayloadSchema = z.object({
  type: z.literal('workflow_run.phase_ended'),
  ...RunFields,
  workflow_run_phase_id: z.string(),
  /** The `workflow_run.phase_started` event that opened the phase. */
  phase_started_id: z.string(),
});
