import type { InboundEvent, SessionEvent } from '@agentry/contracts';
import { answersIn, callsIn, type RecordedTurn } from './recorded-turns.js';

type Payload<T extends SessionEvent['type']> = Extract<SessionEvent, { type: T }>;

/**
 * The original's answers (tool confirmations, custom tool results) to the replay's open calls `openIds`,
 * each matched to an original call of the same kind, tool name and input that was answered; every original
 * answer is used once. Null when some open call has no match.
 */
export function answersFor(
  original: RecordedTurn,
  replayed: RecordedTurn,
  openIds: string[],
): InboundEvent[] | null {
  const answered = new Map(answersIn(original).map((a) => [a.callId, a.event]));
  const candidates = callsIn(original).filter((call) => answered.has(call.id));
  const replayCalls = callsIn(replayed);
  const used = new Set<string>();
  const answers: InboundEvent[] = [];
  for (const id of openIds) {
    const call = replayCalls.find((c) => c.id === id);
    const match =
      call &&
      candidates.find(
        (c) =>
          !used.has(c.id) &&
          c.type === call.type &&
          c.name === call.name &&
          canonicalJson(c.input) === canonicalJson(call.input),
      );
    if (!match) return null;
    used.add(match.id);
    answers.push(answerTo(id, answered.get(match.id)!));
  }
  return answers;
}

function answerTo(callId: string, answer: SessionEvent): InboundEvent {
  if (answer.type === 'user.tool_confirmation') {
    const { result, deny_message } = answer;
    return {
      type: 'user.tool_confirmation',
      tool_use_id: callId,
      result,
      ...(deny_message ? { deny_message } : {}),
    };
  }
  const { content, is_error } = answer as Payload<'user.custom_tool_result'>;
  return {
    type: 'user.custom_tool_result',
    custom_tool_use_id: callId,
    ...(content ? { content } : {}),
    ...(is_error !== undefined && is_error !== null ? { is_error } : {}),
  };
}

/** JSON with object keys sorted, so values that differ only in key order compare equal. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );
}
