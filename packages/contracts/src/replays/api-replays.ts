import { z } from 'zod';
import { LIMITS } from '../common/common.js';
import type { ListReplaysParams, Replay, ReplayBatch, ReplayTurn, ReplayTurnSide } from './replays.js';

/** `/api/replays` list query: the `/v1` filters in `/api` spelling. */
export const ApiListReplaysParamsSchema = z.object({
  limit: z.coerce.number().int().min(1).max(LIMITS.listLimitMax).default(LIMITS.listLimitDefault),
  page: z.string().min(1).optional(),
  sessionId: z.string().min(1).optional(),
  batchId: z.string().min(1).optional(),
});
export type ApiListReplaysParams = z.infer<typeof ApiListReplaysParamsSchema>;

export function apiListReplaysToV1(params: ApiListReplaysParams): ListReplaysParams {
  return {
    limit: params.limit,
    ...(params.page ? { page: params.page } : {}),
    ...(params.sessionId ? { session_id: params.sessionId } : {}),
    ...(params.batchId ? { batch_id: params.batchId } : {}),
  };
}

/** A replay in `/api` spelling; tool inputs are user data and keep theirs. */
export function replayToApi(replay: Replay) {
  return {
    id: replay.id,
    sourceSessionId: replay.source_session_id,
    replaySessionId: replay.replay_session_id,
    batchId: replay.batch_id,
    agent: replay.agent,
    status: replay.status,
    error: replay.error,
    comparison: replay.comparison && {
      turns: replay.comparison.turns.map(turnToApi),
      summary: replay.comparison.summary,
    },
    createdAt: replay.created_at,
    finishedAt: replay.finished_at,
  };
}

export function replayBatchToApi(batch: ReplayBatch) {
  return {
    id: batch.id,
    agent: batch.agent,
    status: batch.status,
    replays: batch.replays.map(replayToApi),
    summary: batch.summary,
    createdAt: batch.created_at,
  };
}

function turnToApi(turn: ReplayTurn) {
  return {
    index: turn.index,
    userMessage: turn.user_message,
    original: sideToApi(turn.original),
    replay: turn.replay && sideToApi(turn.replay),
    verdict: turn.verdict,
  };
}

function sideToApi(side: ReplayTurnSide) {
  return {
    finalMessage: side.final_message,
    toolCalls: side.tool_calls,
    errors: side.errors,
    stopReason: side.stop_reason,
    inputTokens: side.input_tokens,
    outputTokens: side.output_tokens,
    cost: side.cost,
    latencyMs: side.latency_ms,
  };
}
