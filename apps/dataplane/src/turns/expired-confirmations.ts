import type { StoredEvent } from '@agentry/contracts';
import { resultTarget } from '../hands/tool-call-ledger.js';

type Fields = Record<string, unknown>;

const ASKING_CALL_TYPES = new Set(['agent.tool_use', 'agent.mcp_tool_use']);

/** The environment's `tool_confirmation_timeout_seconds`, as frozen in the session's spec; undefined when unset. */
export function confirmationTimeoutOf(spec: unknown): number | undefined {
  const config = (spec as { environment?: { config?: Fields } } | null)?.environment?.config;
  const seconds = config?.tool_confirmation_timeout_seconds;
  return typeof seconds === 'number' && seconds > 0 ? seconds : undefined;
}

/**
 * Ids of the `ask` calls that are still unanswered (no result, no confirmation in the log) and were made
 * at least `timeoutSeconds` before `now`. Each call's wait starts when it was made, so answering one of
 * several parallel calls does not extend the others.
 */
export function expiredAsks(log: StoredEvent[], timeoutSeconds: number, now: Date): string[] {
  const answered = new Set(log.flatMap((e) => resultTarget(e) ?? []));
  for (const e of log) {
    if (e.event.type === 'user.tool_confirmation')
      answered.add(String((e.event as unknown as Fields).tool_use_id));
  }
  const cutoff = now.getTime() - timeoutSeconds * 1000;
  return log.flatMap((e) => {
    const fields = e.event as unknown as Fields;
    if (
      !ASKING_CALL_TYPES.has(e.event.type) ||
      fields.evaluated_permission !== 'ask' ||
      answered.has(e.event.id)
    )
      return [];
    const madeAt = Date.parse(String(fields.created_at));
    return Number.isFinite(madeAt) && madeAt <= cutoff ? [e.event.id] : [];
  });
}

/** What the model and the user read on a call denied for want of an answer. */
export function expiryDenyMessage(timeoutSeconds: number): string {
  return (
    `No confirmation arrived within ${timeoutSeconds} s of this tool call, so it was denied automatically ` +
    "(the environment's tool_confirmation_timeout_seconds). Ask the user before trying it again."
  );
}
