import type { ChatMessage } from '../model/model-port.js';

/**
 * For every cut index i (messages[0..i) summarised, messages[i..] kept), whether the cut keeps each
 * assistant tool call together with all of its results. A call still waiting for its result pins
 * everything after it, and a kept part may never start with a tool result.
 */
function safeCutPoints(messages: readonly ChatMessage[]): boolean[] {
  const n = messages.length;
  const spans = new Map<string, { lo: number; hi: number; answered: boolean }>();
  messages.forEach((message, index) => {
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) {
        const span = spans.get(call.id);
        if (span) span.lo = Math.min(span.lo, index);
        else spans.set(call.id, { lo: index, hi: index, answered: false });
      }
    } else if (message.role === 'tool') {
      const span = spans.get(message.toolCallId);
      if (span) {
        span.hi = Math.max(span.hi, index);
        span.answered = true;
      } else spans.set(message.toolCallId, { lo: index, hi: index, answered: true });
    }
  });
  // Difference array: cuts in (lo, hi] split a span.
  const delta = new Array<number>(n + 2).fill(0);
  for (const span of spans.values()) {
    const hi = span.answered ? span.hi : n;
    if (hi <= span.lo) continue;
    delta[span.lo + 1] = (delta[span.lo + 1] ?? 0) + 1;
    delta[hi + 1] = (delta[hi + 1] ?? 0) - 1;
  }
  const safe: boolean[] = [];
  let open = 0;
  for (let i = 0; i <= n; i += 1) {
    open += delta[i] ?? 0;
    safe.push(open === 0 && messages[i]?.role !== 'tool');
  }
  return safe;
}

/**
 * Moves a desired cut to the nearest safe one, preferring earlier cuts (keeping a little more) and
 * falling back to later ones. Returns null when no safe cut lies in (min, max].
 */
export function nearestSafeCut(
  messages: readonly ChatMessage[],
  desired: number,
  min: number,
  max = messages.length,
): number | null {
  const safe = safeCutPoints(messages);
  for (let i = Math.min(desired, max); i > min; i -= 1) if (safe[i]) return i;
  for (let i = desired + 1; i <= max; i += 1) if (safe[i]) return i;
  return null;
}
