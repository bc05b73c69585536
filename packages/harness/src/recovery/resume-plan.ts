import type { ChatMessage, ToolCall } from '../model/model-port.js';
import { errorOutcome, type FinishedOutcome } from '../tools/tool-executor.js';
import type { Approval, CutOffCall, SuppliedToolResult } from '../loop/harness-config.js';

/**
 * Tool calls of the last assistant message with no result after it: waiting for a human or a worker,
 * or cut off by a crash. The one place that tells which calls a run resumes with.
 */
export function openToolCalls(conversation: ChatMessage[]): ToolCall[] {
  const at = conversation.findLastIndex((m) => m.role === 'assistant');
  const last = conversation[at];
  if (!last || last.role !== 'assistant' || !last.toolCalls?.length) return [];
  const answered = new Set(
    conversation.slice(at + 1).flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : [])),
  );
  return last.toolCalls.filter((c) => !answered.has(c.id));
}

/** What the caller knows of the open calls a run resumes with (see `RunInput`). */
export interface ResumeFacts {
  toolResults?: Record<string, SuppliedToolResult>;
  approvals?: Record<string, Approval>;
  cutOff?: Record<string, CutOffCall>;
}

export interface ResumePlan {
  /** Outcomes known without running anything (supplied or recorded results, denials, interruptions). */
  ready: Map<string, FinishedOutcome>;
  /** Calls to run now: approved by the user, cut off by a crash on a worker that still runs them, or idempotent. */
  approved: ToolCall[];
  /** Calls still waiting for a human or a worker. */
  unresolved: ToolCall[];
}

const INTERRUPTED_TEXT =
  'The tool call was interrupted by a restart and may or may not have run; check before retrying';

/**
 * What happens to each open call when a run resumes (DESIGN.md §6.3, at most once):
 * 1. a result its worker or client delivered is used, the first one delivered winning;
 * 2. a call cut off by a crash uses the result its Hands recorded before the cut, if any; without one it is
 *    sent again when its worker still runs it (the worker answers the copy with the call's result), an
 *    idempotent tool runs again, and any other gets an error result saying it may or may not have run;
 * 3. the user's answer to a confirmation runs the call or denies it;
 * 4. anything else keeps waiting, and the run ends with `requires_action` again.
 */
export function planResume(
  calls: ToolCall[],
  facts: ResumeFacts,
  isIdempotent: (toolName: string) => boolean,
): ResumePlan {
  const plan: ResumePlan = { ready: new Map(), approved: [], unresolved: [] };
  for (const call of calls) {
    const supplied = facts.toolResults?.[call.id];
    const cutOff = facts.cutOff?.[call.id];
    const approval = facts.approvals?.[call.id];
    if (supplied) plan.ready.set(call.id, asOutcome(supplied));
    else if (cutOff?.recorded) plan.ready.set(call.id, asOutcome(cutOff.recorded));
    else if (cutOff && (cutOff.stillRunning || isIdempotent(call.name))) plan.approved.push(call);
    else if (cutOff)
      plan.ready.set(call.id, errorOutcome(`[interrupted] ${INTERRUPTED_TEXT}`, 'interrupted'));
    else if (approval?.decision === 'allow') plan.approved.push(call);
    else if (approval?.decision === 'deny') {
      const message = approval.message ?? 'The user denied this tool call';
      plan.ready.set(call.id, errorOutcome(`[permission_denied] ${message}`, 'permission_denied'));
    } else plan.unresolved.push(call);
  }
  return plan;
}

/** Whether every open call can be answered or run now, so the run goes on to the model. */
export function resumesWithoutWaiting(calls: ToolCall[], facts: ResumeFacts): boolean {
  return calls.every(
    (call) => facts.toolResults?.[call.id] ?? facts.cutOff?.[call.id] ?? facts.approvals?.[call.id],
  );
}

export function abandonedOutcome(): FinishedOutcome {
  return errorOutcome(
    '[no_result] The conversation continued before this tool call produced a result',
    'no_result',
  );
}

function asOutcome(result: SuppliedToolResult): FinishedOutcome {
  const content =
    typeof result.content === 'string' ? [{ type: 'text' as const, text: result.content }] : result.content;
  return result.isError ? { status: 'error', content, reason: 'tool_failed' } : { status: 'ok', content };
}
