import type { PendingToolCall, StoredEvent } from '@agentry/contracts';
import { SELF_HOSTED_TOOL_NAMES } from './self-hosted-tools.js';

type Fields = Record<string, unknown>;

/** Which field of a result event names the call it answers. */
const RESULT_TARGET: Readonly<Record<string, string>> = {
  'agent.tool_result': 'tool_use_id',
  'agent.mcp_tool_result': 'mcp_tool_use_id',
  'user.tool_result': 'tool_use_id',
  'user.custom_tool_result': 'custom_tool_use_id',
};
const CALL_TYPES = new Set(['agent.tool_use', 'agent.mcp_tool_use', 'agent.custom_tool_use']);

const fields = (e: StoredEvent): Fields => e.event;

/** The call id a result event answers, or undefined for any other event. */
export function resultTarget(e: StoredEvent): string | undefined {
  const field = RESULT_TARGET[e.event.type];
  const value = field ? fields(e)[field] : undefined;
  return typeof value === 'string' ? value : undefined;
}

export const isClientToolResult = (e: StoredEvent): boolean =>
  e.event.type === 'user.tool_result' || e.event.type === 'user.custom_tool_result';

/**
 * Self-hosted calls a worker should run now, in seq order: allowed (or confirmed by the user), and
 * answered neither by the Brain (`agent.tool_result`) nor by a worker (`user.tool_result`).
 */
export function pendingSelfHostedCalls(log: StoredEvent[]): PendingToolCall[] {
  const answered = new Set(log.flatMap((e) => resultTarget(e) ?? []));
  const confirmed = new Set(
    log.flatMap((e) =>
      e.event.type === 'user.tool_confirmation' && fields(e).result === 'allow'
        ? [String(fields(e).tool_use_id)]
        : [],
    ),
  );
  return log.flatMap((e): PendingToolCall[] => {
    const f = fields(e);
    if (
      e.event.type !== 'agent.tool_use' ||
      !SELF_HOSTED_TOOL_NAMES.has(String(f.name)) ||
      answered.has(e.event.id)
    )
      return [];
    if (f.evaluated_permission !== 'allow' && !confirmed.has(e.event.id)) return [];
    const input = typeof f.input === 'object' && f.input !== null ? (f.input as Record<string, unknown>) : {};
    return [{ eventId: e.event.id, seq: e.seq, toolUseId: e.event.id, name: String(f.name), input }];
  });
}

/**
 * Inbox results that can change nothing, so they must not start a turn: the call does not exist, the
 * Brain already answered it, or an earlier result for it is already in the log (workers may deliver
 * twice; the first result wins).
 */
export function redundantToolResults(log: StoredEvent[], inbox: StoredEvent[]): string[] {
  const inboxIds = new Set(inbox.map((e) => e.event.id));
  const calls = new Set(log.flatMap((e) => (CALL_TYPES.has(e.event.type) ? [e.event.id] : [])));
  const answeredByBrain = new Set(log.flatMap((e) => (isClientToolResult(e) ? [] : (resultTarget(e) ?? []))));
  const delivered = new Set<string>();
  const redundant: string[] = [];
  for (const e of log) {
    if (!isClientToolResult(e)) continue;
    const target = resultTarget(e) ?? '';
    if (
      inboxIds.has(e.event.id) &&
      (!calls.has(target) || answeredByBrain.has(target) || delivered.has(target))
    )
      redundant.push(e.event.id);
    delivered.add(target);
  }
  return redundant;
}
