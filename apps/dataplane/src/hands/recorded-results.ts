import { handsResultKey, HandsExecResultSchema, type HandsExecResult } from '@agentry/contracts';
import type { Redis } from 'ioredis';

/** The result a worker recorded for a call (see the worker's ToolResultCache), or null while there is none. */
export type RecordedResultLookup = (toolUseId: string) => Promise<HandsExecResult | null>;

export function redisRecordedResults(redis: Redis): RecordedResultLookup {
  return async (toolUseId) => {
    const raw = await redis.get(handsResultKey(toolUseId));
    return raw === null ? null : HandsExecResultSchema.parse(JSON.parse(raw));
  };
}

/**
 * Resolves `recorded` once the worker has recorded the call's result. The reply travels over core NATS,
 * which drops it when the caller's reply subscription is not back yet after a NATS restart; the worker
 * records the result before it replies, so the turn goes on with it instead of waiting out the timeout.
 */
export function watchRecordedResult(
  lookup: RecordedResultLookup,
  toolUseId: string,
  pollMs: number,
): { recorded: Promise<HandsExecResult>; stop: () => void } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const recorded = new Promise<HandsExecResult>((resolve) => {
    const check = async () => {
      if (stopped) return;
      // Redis away says nothing about the call: keep waiting for the reply.
      const result = await lookup(toolUseId).catch(() => null);
      if (stopped) return;
      if (result) resolve(result);
      else timer = setTimeout(() => void check(), pollMs);
    };
    timer = setTimeout(() => void check(), pollMs);
  });
  return {
    recorded,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
