import { z } from 'zod';
import type {
  MultiagentRun,
  MultiagentRunEntry,
  MultiagentRunReply,
} from '../deployments/scheduler-subjects.js';

/** A run's deadline unless the request names one. */
const MULTIAGENT_DEFAULT_TIMEOUT_SECONDS = 120;
/** The longest a request that waits for its run may ask for: the connection stays open that long. */
export const MULTIAGENT_SYNC_MAX_TIMEOUT_SECONDS = 600;
/** The longest an asynchronous run may last (a day); it outlives the request that started it. */
const MULTIAGENT_ASYNC_MAX_TIMEOUT_SECONDS = 86_400;

/** `/api/multiagent/run`: one session per agent, the same message to each, and every final reply. */
export const ApiMultiagentRunRequestSchema = z.strictObject({
  agentIds: z
    .array(z.string().min(1))
    .min(1, 'agentIds must name at least one agent')
    .max(20, 'agentIds may name at most 20 agents'),
  message: z.string().min(1, 'message required').max(100_000),
  environmentId: z.string().min(1, 'environmentId required'),
  /** Run the sessions concurrently (at most 8 at a time); otherwise one after another. */
  parallel: z.boolean().default(false),
  /**
   * How long every session of the run may take to settle, in seconds; entries still running then report
   * `timeout`. At most MULTIAGENT_SYNC_MAX_TIMEOUT_SECONDS when the request waits for the run, and
   * MULTIAGENT_ASYNC_MAX_TIMEOUT_SECONDS with `Prefer: respond-async`.
   */
  timeoutSeconds: z
    .number()
    .int('timeoutSeconds must be a whole number of seconds')
    .min(1, 'timeoutSeconds must be at least 1')
    .max(
      MULTIAGENT_ASYNC_MAX_TIMEOUT_SECONDS,
      `timeoutSeconds may be at most ${MULTIAGENT_ASYNC_MAX_TIMEOUT_SECONDS}`,
    )
    .default(MULTIAGENT_DEFAULT_TIMEOUT_SECONDS),
});
export type ApiMultiagentRunRequest = z.infer<typeof ApiMultiagentRunRequestSchema>;

const ApiRunResultSchema = z.object({
  agentId: z.string(),
  sessionId: z.string().nullable(),
  status: z.enum(['idle', 'terminated', 'timeout', 'error']),
  reply: z.string().nullable(),
  error: z.string().nullable(),
});

export const ApiMultiagentRunReplySchema = z.object({ results: z.array(ApiRunResultSchema) });
export type ApiMultiagentRunReply = z.infer<typeof ApiMultiagentRunReplySchema>;

/** A run started with `Prefer: respond-async`, as `GET /api/multiagent/runs/{id}` and its stream show it. */
export const ApiMultiagentRunSchema = z.object({
  id: z.string(),
  status: z.enum(['queued', 'running', 'completed']),
  message: z.string(),
  environmentId: z.string(),
  parallel: z.boolean(),
  results: z.array(
    ApiRunResultSchema.extend({
      status: z.enum(['pending', 'running', 'idle', 'terminated', 'timeout', 'error']),
    }),
  ),
  createdAt: z.string(),
  deadlineAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ApiMultiagentRun = z.infer<typeof ApiMultiagentRunSchema>;

export function multiagentReplyToApi(reply: MultiagentRunReply): ApiMultiagentRunReply {
  return { results: reply.results.map(entryToApi) };
}

export function multiagentRunToApi(run: MultiagentRun): ApiMultiagentRun {
  return {
    id: run.id,
    status: run.status,
    message: run.message,
    environmentId: run.environment_id,
    parallel: run.parallel,
    results: run.results.map(entryToApi),
    createdAt: run.created_at,
    deadlineAt: run.deadline_at,
    finishedAt: run.finished_at,
  };
}

/** One entry in the API's shape; its status keeps the entry's own status type. */
interface ApiEntry<Status> {
  agentId: string;
  sessionId: string | null;
  status: Status;
  reply: string | null;
  error: string | null;
}

function entryToApi<E extends MultiagentRunEntry | MultiagentRunReply['results'][number]>(
  r: E,
): ApiEntry<E['status']> {
  return {
    agentId: r.agent_id,
    sessionId: r.session_id,
    status: r.status,
    reply: r.reply,
    error: r.error,
  };
}
