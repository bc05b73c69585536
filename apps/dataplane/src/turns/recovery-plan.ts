import { FILESYSTEM_TOOLS, type Approval, type ChatMessage, type SuppliedToolResult } from '@agentry/harness';
import type { StoredEvent } from '@agentry/contracts';
import { danglingToolCalls } from './conversation-builder.js';

/** Whether a built-in tool is safe to run again after a crash, as each tool declares it. */
const IDEMPOTENT = new Map(FILESYSTEM_TOOLS.map((t) => [t.name, t.idempotent]));

export interface ResumeInput {
  approvals: Record<string, Approval>;
  toolResults: Record<string, SuppliedToolResult>;
}

export interface ResumeOptions {
  /** Calls a self-hosted worker runs: without a result they are still pending, never crash-interrupted. */
  awaitsWorker?: (toolName: string) => boolean;
}

/**
 * Decides what happens to tool calls that have no result yet:
 * - a `user.tool_confirmation` in the inbox approves or denies an `ask` (the first one for a call wins);
 * - a `user.tool_result` / `user.custom_tool_result` anywhere in the log supplies a result (the first
 *   one wins: a worker that delivers twice answers once);
 * - a call a self-hosted worker runs and that has neither stays pending;
 * - any other call that was allowed and has neither was cut short by a crash: an idempotent tool runs
 *   again, any other gets an error result saying it may or may not have run (at-most-once side effects).
 * Calls still waiting for a human or a worker stay unresolved, so the run ends with `requires_action` again.
 */
export function planResume(
  conversation: ChatMessage[],
  log: StoredEvent[],
  inbox: StoredEvent[],
  options: ResumeOptions = {},
): ResumeInput {
  const plan: ResumeInput = { approvals: {}, toolResults: {} };
  const permissionById = new Map(
    log.flatMap(({ event }) => {
      const e = event as unknown as Record<string, unknown>;
      return typeof e.evaluated_permission === 'string' ? [[event.id, e.evaluated_permission as string]] : [];
    }),
  );
  for (const { event } of inbox) {
    const e = event as unknown as Record<string, unknown>;
    if (event.type !== 'user.tool_confirmation') continue;
    const id = String(e.tool_use_id);
    // The first answer wins: a user's confirmation that crossed an automatic denial on expiry stands.
    plan.approvals[id] ??=
      e.result === 'allow'
        ? { decision: 'allow' }
        : { decision: 'deny', ...(e.deny_message ? { message: String(e.deny_message) } : {}) };
  }
  for (const { event } of log) {
    const e = event as unknown as Record<string, unknown>;
    if (event.type !== 'user.tool_result' && event.type !== 'user.custom_tool_result') continue;
    const id = String(e.tool_use_id ?? e.custom_tool_use_id);
    plan.toolResults[id] ??= {
      content: (e.content as SuppliedToolResult['content']) ?? [],
      isError: e.is_error === true,
    };
  }
  for (const call of danglingToolCalls(conversation)) {
    if (plan.approvals[call.id] || plan.toolResults[call.id]) continue;
    if (permissionById.get(call.id) !== 'allow' || options.awaitsWorker?.(call.name)) continue;
    if (IDEMPOTENT.get(call.name) === true) {
      plan.approvals[call.id] = { decision: 'allow' };
    } else {
      plan.toolResults[call.id] = {
        content: `The ${call.name} call was interrupted by a restart; it may or may not have taken effect. Check before retrying.`,
        isError: true,
      };
    }
  }
  return plan;
}

/**
 * Messages the user sent while tool calls were out sit after the last assistant message. Once every
 * such call can be answered now, they are handed to the harness as new messages, so its results come
 * first and the model sees them in order; while a call still waits (on a worker or a human) they stay
 * where they are and the run ends with `requires_action` again, without a model call.
 */
export function withWaitingMessages(
  conversation: ChatMessage[],
  plan: ResumeInput,
): { conversation: ChatMessage[]; newMessages?: ChatMessage[] } {
  const dangling = danglingToolCalls(conversation);
  let start = conversation.length;
  while (start > 0 && conversation[start - 1]?.role === 'user') start -= 1;
  const resolvable = dangling.every((call) => plan.toolResults[call.id] || plan.approvals[call.id]);
  if (dangling.length === 0 || start === conversation.length || !resolvable) return { conversation };
  return { conversation: conversation.slice(0, start), newMessages: conversation.slice(start) };
}
