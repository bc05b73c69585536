import {
  inputText,
  openToolCalls,
  resumesWithoutWaiting,
  type ChatMessage,
  type ResumeFacts,
  type SuppliedToolResult,
} from '@agentry/harness';
import type { StoredEvent } from '@agentry/contracts';
import type { RecordedResultLookup } from '../hands/recorded-results.js';
import { latestElicitations } from './mcp-elicitations.js';

type Fields = Record<string, unknown>;

export interface ResumeOptions {
  /** Calls a self-hosted worker runs: without a result they are still pending, never cut off. */
  awaitsWorker?: (toolName: string) => boolean;
  /** The result a cluster worker recorded for a call, read for the calls a crash cut off. */
  recorded?: RecordedResultLookup;
  /** Whether the cluster worker that took a call is alive, so it still runs the call or keeps its result. */
  stillRunning?: (toolUseId: string) => Promise<boolean>;
}

/**
 * What the log says of the calls a turn resumes with, for the harness's `planResume` (the one place that
 * decides their fate):
 * - a `user.tool_result` / `user.custom_tool_result` anywhere in the log supplies a result;
 * - a `user.tool_confirmation` still in the inbox is the user's answer to an `ask`;
 * - a call that was allowed (by policy, or by a confirmation a turn already consumed) and has neither was
 *   cut off by a crash: the result its Hands recorded before the cut comes with it, if there is one, or else
 *   whether the worker that took it is still alive (a lost lease, not a lost worker, cut it off);
 * - a call a self-hosted worker runs stays pending until its worker answers;
 * - a call whose MCP server asked the user to act at a link waits for the first answer to its latest
 *   request: `accept` runs it again, `decline` or `cancel` ends it with an error result.
 * The first of each kind for a call wins: a worker that delivers twice answers once, and a user's
 * confirmation that crossed an automatic denial on expiry stands.
 */
export async function resumeFacts(
  conversation: ChatMessage[],
  log: StoredEvent[],
  inbox: StoredEvent[],
  options: ResumeOptions = {},
): Promise<Required<ResumeFacts>> {
  const facts: Required<ResumeFacts> = { approvals: {}, toolResults: {}, cutOff: {} };
  const unconsumed = new Set(inbox.map((e) => e.event.id));
  const permission = new Map<string, string>();
  const confirmedBefore = new Set<string>();
  for (const { event } of log) {
    const e = event as unknown as Fields;
    if (typeof e.evaluated_permission === 'string') permission.set(event.id, e.evaluated_permission);
    if (event.type === 'user.tool_result' || event.type === 'user.custom_tool_result') {
      facts.toolResults[String(e.tool_use_id ?? e.custom_tool_use_id)] ??= suppliedBy(e);
    } else if (event.type === 'user.tool_confirmation') {
      const id = String(e.tool_use_id);
      if (facts.approvals[id] || confirmedBefore.has(id)) continue;
      // An allow a turn already consumed let the call run: it is not an answer to ask for again.
      if (e.result === 'allow' && !unconsumed.has(event.id)) confirmedBefore.add(id);
      else
        facts.approvals[id] =
          e.result === 'allow'
            ? { decision: 'allow' }
            : { decision: 'deny', ...(e.deny_message ? { message: inputText(e.deny_message) } : {}) };
    }
  }
  const elicitations = latestElicitations(log);
  for (const call of openToolCalls(conversation)) {
    const asked = elicitations.get(call.id);
    if (asked && !facts.toolResults[call.id]) {
      if (!asked.answer) continue;
      // An answer a turn already consumed made the call again; one still in the inbox is news.
      if (unconsumed.has(asked.answer.eventId)) {
        facts.approvals[call.id] =
          asked.answer.type === 'accept'
            ? { decision: 'allow' }
            : { decision: 'deny', message: declinedMessage(asked.answer.type) };
        continue;
      }
    }
    if (facts.toolResults[call.id] || facts.approvals[call.id] || options.awaitsWorker?.(call.name)) continue;
    if (permission.get(call.id) !== 'allow' && !confirmedBefore.has(call.id)) continue;
    const recorded = await options.recorded?.(call.id).catch(() => null);
    facts.cutOff[call.id] = recorded
      ? { recorded: { content: recorded.content, isError: recorded.isError } }
      : (await options.stillRunning?.(call.id).catch(() => false))
        ? { stillRunning: true }
        : {};
  }
  return facts;
}

/**
 * Messages the user sent while tool calls were out sit after the last assistant message. Once every
 * such call can be answered now, they are handed to the harness as new messages, so its results come
 * first and the model sees them in order; while a call still waits (on a worker or a human) they stay
 * where they are and the run ends with `requires_action` again, without a model call.
 */
export function withWaitingMessages(
  conversation: ChatMessage[],
  facts: ResumeFacts,
): { conversation: ChatMessage[]; newMessages?: ChatMessage[] } {
  const open = openToolCalls(conversation);
  let start = conversation.length;
  while (start > 0 && conversation[start - 1]?.role === 'user') start -= 1;
  if (open.length === 0 || start === conversation.length || !resumesWithoutWaiting(open, facts))
    return { conversation };
  return { conversation: conversation.slice(0, start), newMessages: conversation.slice(start) };
}

function suppliedBy(e: Fields): SuppliedToolResult {
  return { content: (e.content as SuppliedToolResult['content']) ?? [], isError: e.is_error === true };
}

function declinedMessage(answer: string): string {
  return answer === 'decline'
    ? "The user declined the MCP server's request to act at a link, so the tool call was not made"
    : "The user left the MCP server's request to act at a link unanswered, so the tool call was not made";
}
