import type {
  MonetaryAmount,
  ReplayToolCall,
  ReplayTurnSide,
  SessionEvent,
  StoredEvent,
} from '@agentry/contracts';

/** One user message and every event after it up to the next user message: what the agent did until idle. */
export interface RecordedTurn {
  message: StoredEvent;
  events: StoredEvent[];
  /** The session's cumulative list cost before the turn, in micro-USD (null while no model had a price). */
  costBefore: number | null;
}

/** Where a turn stands: still running, waiting on answers to calls, or over. */
export type TurnState =
  | { kind: 'running' }
  | { kind: 'requires_action'; eventIds: string[] }
  | { kind: 'ended'; stopReason: string };

type Payload<T extends SessionEvent['type']> = Extract<SessionEvent, { type: T }>;

const TOOL_CALLS = new Set(['agent.tool_use', 'agent.mcp_tool_use', 'agent.custom_tool_use']);
const ANSWERS = new Set(['user.tool_confirmation', 'user.custom_tool_result']);

/** Splits a session's log into turns; events before the first user message belong to none. */
export function splitTurns(log: StoredEvent[]): RecordedTurn[] {
  const turns: RecordedTurn[] = [];
  let cost: number | null = null;
  for (const stored of log) {
    if (stored.event.type === 'user.message') {
      turns.push({ message: stored, events: [], costBefore: cost });
    } else {
      turns.at(-1)?.events.push(stored);
    }
    if (stored.event.type === 'session.usage') cost = micros(stored.event.usage.list_cost) ?? cost;
  }
  return turns;
}

export function textOf(event: SessionEvent): string {
  const content = (event as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.flatMap((block) => (block.type === 'text' ? [block.text ?? ''] : [])).join('');
}

/**
 * The state of a turn from its own events. An idle asking for action whose calls all have answers in the
 * log counts as running: the answers are in the inbox and the turn goes on.
 */
export function turnState(turn: RecordedTurn): TurnState {
  const statuses = turn.events.filter((e) => e.event.type.startsWith('session.status_'));
  const last = statuses.at(-1)?.event;
  if (!last || last.type === 'session.status_running' || last.type === 'session.status_rescheduled')
    return { kind: 'running' };
  if (last.type === 'session.status_terminated') return { kind: 'ended', stopReason: 'terminated' };
  if (last.type !== 'session.status_idle') return { kind: 'running' };
  const stop = last.stop_reason;
  if (stop.type !== 'requires_action') return { kind: 'ended', stopReason: stop.type };
  const answered = new Set(answersIn(turn).map((a) => a.callId));
  const open = stop.event_ids.filter((id) => !answered.has(id));
  return open.length === 0 ? { kind: 'running' } : { kind: 'requires_action', eventIds: open };
}

/** The turn's tool calls with their ids, in order. */
export function callsIn(turn: RecordedTurn): Array<ReplayToolCall & { id: string; type: string }> {
  return turn.events.flatMap(({ event }) => {
    if (!TOOL_CALLS.has(event.type)) return [];
    const call = event as Payload<'agent.tool_use'>;
    return [{ id: event.id, type: event.type, name: call.name, input: call.input }];
  });
}

/** The turn's answers to calls (confirmations and custom tool results) as the inbound events they were. */
export function answersIn(turn: RecordedTurn): Array<{ callId: string; event: SessionEvent }> {
  return turn.events.flatMap(({ event }) => {
    if (!ANSWERS.has(event.type)) return [];
    const callId =
      event.type === 'user.tool_confirmation'
        ? event.tool_use_id
        : (event as Payload<'user.custom_tool_result'>).custom_tool_use_id;
    return [{ callId, event }];
  });
}

/** What the agent did in a turn, as the comparison shows it. */
export function sideOf(turn: RecordedTurn): ReplayTurnSide {
  const state = turnState(turn);
  const messages = turn.events.filter((e) => e.event.type === 'agent.message');
  const errors = turn.events.flatMap(({ event }) => {
    if (event.type !== 'session.error') return [];
    const { error } = event;
    return [{ type: error.type, message: error.message }];
  });
  let inputTokens = 0;
  let outputTokens = 0;
  let costAfter: number | null = turn.costBefore;
  let endedAt: string | null = null;
  for (const { event } of turn.events) {
    if (event.type === 'span.model_request_end') {
      const usage = event.model_usage;
      inputTokens += usage.input_tokens;
      outputTokens += usage.output_tokens;
    }
    if (event.type === 'session.usage') costAfter = micros(event.usage.list_cost) ?? costAfter;
    if (event.type === 'session.status_idle' || event.type === 'session.status_terminated')
      endedAt = event.created_at;
  }
  const ended = state.kind === 'ended';
  return {
    final_message: messages.length ? textOf(messages.at(-1)!.event) : null,
    tool_calls: callsIn(turn).map(({ name, input }) => ({ name, input })),
    errors,
    stop_reason: ended ? state.stopReason : state.kind === 'requires_action' ? 'requires_action' : null,
    input_tokens: inputTokens,
    output_tokens: outputTokens,
    cost: costAfter === null ? null : usd(costAfter - (turn.costBefore ?? 0)),
    latency_ms:
      ended && endedAt ? Math.max(0, Date.parse(endedAt) - Date.parse(turn.message.event.created_at)) : null,
  };
}

function micros(amount: MonetaryAmount | null | undefined): number | null {
  if (!amount) return null;
  const value = Number(amount.amount);
  return Number.isFinite(value) ? Math.round(value * 1_000_000) : null;
}

function usd(value: number): MonetaryAmount {
  return { amount: (Math.max(0, value) / 1_000_000).toFixed(6), currency: 'USD' };
}
