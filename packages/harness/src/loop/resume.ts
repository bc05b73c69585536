import type { ChatMessage, ToolCall } from '../model/model-port.js';
import type { ToolOutcome } from '../tools/tool.js';
import { errorOutcome } from '../tools/tool-executor.js';
import type { RunInput } from './harness-config.js';

/** Tool calls of the last assistant message that have no result yet (pending, awaiting approval, or lost). */
export function danglingCalls(conversation: ChatMessage[]): ToolCall[] {
  const at = conversation.findLastIndex((m) => m.role === 'assistant');
  const last = conversation[at];
  if (!last || last.role !== 'assistant' || !last.toolCalls?.length) return [];
  const answered = new Set(
    conversation.slice(at + 1).flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : [])),
  );
  return last.toolCalls.filter((c) => !answered.has(c.id));
}

export interface ResumePlan {
  /** Outcomes known without running anything (supplied results, denials). */
  ready: Map<string, Exclude<ToolOutcome, { status: 'pending' }>>;
  /** Approved calls to run now. */
  approved: ToolCall[];
  /** Calls still without result, approval or denial. */
  unresolved: ToolCall[];
}

/** Sorts dangling calls by what the caller supplied for them. */
export function planResume(
  calls: ToolCall[],
  input: RunInput,
  isIdempotent: (toolName: string) => boolean,
): ResumePlan {
  const plan: ResumePlan = { ready: new Map(), approved: [], unresolved: [] };
  const interrupted = new Set(input.recoverInterrupted ?? []);
  for (const call of calls) {
    const supplied = input.toolResults?.[call.id];
    const approval = input.approvals?.[call.id];
    if (interrupted.has(call.id) && !supplied) {
      // At-most-once: only read-only tools are re-run after a crash; others may or may not have run.
      if (isIdempotent(call.name)) plan.approved.push(call);
      else
        plan.ready.set(
          call.id,
          errorOutcome(
            '[interrupted] The tool call was interrupted and may or may not have run; check before retrying',
            'interrupted',
          ),
        );
    } else if (supplied) {
      const content =
        typeof supplied.content === 'string'
          ? [{ type: 'text' as const, text: supplied.content }]
          : supplied.content;
      plan.ready.set(
        call.id,
        supplied.isError ? { status: 'error', content, reason: 'tool_failed' } : { status: 'ok', content },
      );
    } else if (approval?.decision === 'allow') plan.approved.push(call);
    else if (approval?.decision === 'deny') {
      plan.ready.set(
        call.id,
        errorOutcome(
          `[permission_denied] ${approval.message ?? 'The user denied this tool call'}`,
          'permission_denied',
        ),
      );
    } else plan.unresolved.push(call);
  }
  return plan;
}

export function abandonedOutcome(): Exclude<ToolOutcome, { status: 'pending' }> {
  return errorOutcome(
    '[no_result] The conversation continued before this tool call produced a result',
    'no_result',
  );
}
