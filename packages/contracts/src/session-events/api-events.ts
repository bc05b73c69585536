import { z } from 'zod';
import type { SessionEvent } from './session-event.js';

/** AgentScope-style events on `/api/sessions/{id}/events`: `{type, payload}` in, DTOs with `seq` out. */

const ApiInboundEventSchema = z.looseObject({
  type: z.string().min(1, 'missing event type'),
  payload: z.record(z.string(), z.unknown()).optional(),
});
export type ApiInboundEvent = z.infer<typeof ApiInboundEventSchema>;

export const ApiSendEventsRequestSchema = z.object({
  events: z
    .array(ApiInboundEventSchema)
    .min(1, 'events must hold at least one event')
    .max(50, 'events may hold at most 50 events'),
});
export type ApiSendEventsRequest = z.infer<typeof ApiSendEventsRequestSchema>;

export const ApiSessionEventSchema = z.object({
  id: z.string(),
  sessionId: z.string(),
  seq: z.number().int(),
  type: z.string(),
  payload: z.record(z.string(), z.unknown()),
  processedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ApiSessionEvent = z.infer<typeof ApiSessionEventSchema>;

type Json = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Text in any of AgentScope's spellings, or a CMA content array as-is. */
function contentOf(p: Json, keys: readonly string[]): unknown {
  if (Array.isArray(p.content)) return p.content;
  for (const key of keys) {
    const text = str(p[key]);
    if (text !== undefined) return [{ type: 'text', text }];
  }
  return undefined;
}

function defined(o: Json): Json {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/**
 * Maps one `/api` event (nested `payload` or flat) to its `/v1` shape. The result is not trusted:
 * validate it with `InboundEventSchema`, which names any missing or unknown field.
 */
export function apiEventToV1(event: ApiInboundEvent): Json {
  const { type, payload, ...flat } = event;
  const p: Json = payload ?? flat;
  switch (type) {
    case 'user.message':
      return { type, content: contentOf(p, ['text', 'message']) };
    case 'system.message':
      return { type, content: contentOf(p, ['text', 'message', 'system']) };
    case 'user.interrupt':
      return defined({ type, session_thread_id: p.session_thread_id ?? p.sessionThreadId });
    case 'user.tool_confirmation': {
      const result = p.result ?? (typeof p.allow === 'boolean' ? (p.allow ? 'allow' : 'deny') : undefined);
      return defined({
        type,
        tool_use_id: p.tool_use_id ?? p.toolUseId,
        result,
        deny_message: p.deny_message ?? p.denyMessage,
      });
    }
    case 'user.tool_result':
    case 'user.custom_tool_result': {
      const idKey = type === 'user.tool_result' ? 'tool_use_id' : 'custom_tool_use_id';
      const id = p[idKey] ?? p.tool_use_id ?? p.toolUseId;
      return defined({
        type,
        [idKey]: id,
        content: contentOf(p, ['output', 'text']),
        is_error: p.is_error ?? p.isError,
      });
    }
    case 'user.define_outcome':
      return defined({
        type,
        description: p.description,
        rubric: p.rubric,
        max_iterations: p.max_iterations ?? p.maxIterations,
      });
    default:
      return { ...p, type };
  }
}

/** The `/api` DTO of a persisted event: payload nested, camelCase envelope, `seq` exposed. */
export function v1EventToApi(
  event: SessionEvent,
  context: { sessionId: string; seq: number },
): ApiSessionEvent {
  const { id, type, processed_at, created_at, ...payload } = event;
  return {
    id,
    sessionId: context.sessionId,
    seq: context.seq,
    type,
    payload,
    processedAt: processed_at,
    createdAt: created_at,
  };
}
