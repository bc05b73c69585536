import type { StoredEvent } from '@agentry/contracts';
import { resultTarget } from '../hands/tool-call-ledger.js';

type Fields = Record<string, unknown>;

/** One `agent.mcp_elicitation` of a log: the call it holds up, and the first answer the user gave it. */
export interface McpElicitation {
  id: string;
  callId: string;
  /** The first `user.mcp_elicitation_response` naming it: only that one applies. */
  answer?: { eventId: string; type: string };
}

const fields = (e: StoredEvent): Fields => e.event;

/**
 * The latest elicitation of each call, by call id. A call the user accepted is made again, and its server
 * may ask again: only the newest request waits for an answer.
 */
export function latestElicitations(log: StoredEvent[]): Map<string, McpElicitation> {
  const byId = new Map<string, McpElicitation>();
  const byCall = new Map<string, McpElicitation>();
  for (const e of log) {
    const f = fields(e);
    if (e.event.type === 'agent.mcp_elicitation' && typeof f.mcp_tool_use_id === 'string') {
      const elicitation: McpElicitation = { id: e.event.id, callId: f.mcp_tool_use_id };
      byId.set(elicitation.id, elicitation);
      byCall.set(elicitation.callId, elicitation);
    } else if (e.event.type === 'user.mcp_elicitation_response') {
      const asked = byId.get(String(f.mcp_elicitation_id));
      const type = (f.response as { type?: unknown } | undefined)?.type;
      if (asked && !asked.answer) asked.answer = { eventId: e.event.id, type: String(type) };
    }
  }
  return byCall;
}

/**
 * Answers in the inbox that can change nothing, so they start no turn: a second answer to a request, an
 * answer to a request its call no longer waits on (asked again, or already ended), or to no request at all.
 */
export function redundantElicitationAnswers(log: StoredEvent[], inbox: StoredEvent[]): string[] {
  const applied = new Set<string>();
  const answered = new Set(log.flatMap((e) => resultTarget(e) ?? []));
  for (const elicitation of latestElicitations(log).values())
    if (elicitation.answer && !answered.has(elicitation.callId)) applied.add(elicitation.answer.eventId);
  return inbox.flatMap((e) =>
    e.event.type === 'user.mcp_elicitation_response' && !applied.has(e.event.id) ? [e.event.id] : [],
  );
}
