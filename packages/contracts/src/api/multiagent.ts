import { z } from 'zod';
import type { MultiagentRunReply } from '../nats/scheduler-subjects.js';

/** `/api/multiagent/run`: one session per agent, the same message to each, and every final reply. */
export const ApiMultiagentRunRequestSchema = z.strictObject({
  agentIds: z.array(z.string().min(1)).min(1, 'agentIds must name at least one agent').max(20, 'agentIds may name at most 20 agents'),
  message: z.string().min(1, 'message required').max(100_000),
  environmentId: z.string().min(1, 'environmentId required'),
  /** Run the sessions concurrently (at most 8 at a time); otherwise one after another. */
  parallel: z.boolean().default(false),
});
export type ApiMultiagentRunRequest = z.infer<typeof ApiMultiagentRunRequestSchema>;

export const ApiMultiagentRunReplySchema = z.object({
  results: z.array(
    z.object({
      agentId: z.string(),
      sessionId: z.string().nullable(),
      status: z.enum(['idle', 'terminated', 'timeout', 'error']),
      reply: z.string().nullable(),
      error: z.string().nullable(),
    }),
  ),
});
export type ApiMultiagentRunReply = z.infer<typeof ApiMultiagentRunReplySchema>;

export function multiagentReplyToApi(reply: MultiagentRunReply): ApiMultiagentRunReply {
  return {
    results: reply.results.map((r) => ({ agentId: r.agent_id, sessionId: r.session_id, status: r.status, reply: r.reply, error: r.error })),
  };
}
