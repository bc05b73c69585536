import { inputText, type ChatMessage, type ContentBlock, type ToolCall } from '@agentry/harness';
import type { StoredEvent } from '@agentry/contracts';
import { COMPACTION_EVENT } from '../event-log/session-log-cache.js';
import { outcomeMessage } from '../outcomes/outcome-messages.js';

type Assistant = Extract<ChatMessage, { role: 'assistant' }>;
type Payload = Record<string, unknown>;

const TOOL_USE_TYPES = new Set(['agent.tool_use', 'agent.mcp_tool_use', 'agent.custom_tool_use']);
const TOOL_RESULT_TYPES = new Set(['agent.tool_result', 'agent.mcp_tool_result']);
const THREAD_STATUS_PREFIX = 'session.thread_status_';

/** A thread's own status event, read as the session status it stands for. */
function ownStatus(type: string, payload: Payload, logOf: string | undefined): string {
  if (!type.startsWith(THREAD_STATUS_PREFIX) || logOf === undefined || payload.session_thread_id !== logOf)
    return type;
  return `session.status_${type.slice(THREAD_STATUS_PREFIX.length)}`;
}

/** A turn stopped: the model's last answer, if any, is complete in the log. */
const TURN_END_TYPES = new Set([
  'session.status_idle',
  'session.status_requires_action',
  'session.status_terminated',
  'session.status_rescheduled',
]);

/**
 * Rebuilds the model conversation from the event log alone, so any replica can continue any session.
 * Each `span.model_request_start` opens a new assistant message; a compaction event replaces
 * everything before it with its summary and the recent messages the compactor kept, so the log from
 * the last compaction on (with the input its turn had not read yet, see `liveLogAfterSql`) is enough. A message that arrived while tool calls were still out (a worker
 * or a human had yet to answer) is placed after their results, as model APIs require; one that arrived
 * while a turn ran (after its `session.status_running` or the compaction it wrote, before it ended) is
 * placed after that turn, where the turn that consumes it reads it, not before answers it never influenced. A turn consumes exactly the input in the log it started from (its start is refused
 * when input arrived after its lease was taken), so no other message lands inside a turn.
 *
 * `logOf`: whose log it is. A session thread's log holds its own status events as thread status events;
 * those of other threads (cross-posted to the primary's log) mark no turn of this one.
 */
export function buildConversation(events: StoredEvent[], logOf?: string): ChatMessage[] {
  let messages: ChatMessage[] = [];
  // Messages since the last compaction: one the compacting turn had not read yet survives it.
  let received: Array<{ seq: number; message: ChatMessage }> = [];
  let assistant: Assistant | undefined;
  const unanswered = new Set<string>();
  let deferred: ChatMessage[] = [];
  // Messages that arrived while a turn ran: placed once it ends.
  let lateInput: ChatMessage[] = [];
  let inTurn = false;
  const flushDeferred = () => {
    messages.push(...deferred);
    deferred = [];
  };
  const place = (message: ChatMessage) => {
    if (unanswered.size > 0) deferred.push(message);
    else {
      assistant = undefined;
      messages.push(message);
    }
  };
  const openAssistant = (): Assistant => {
    if (!assistant) {
      assistant = { role: 'assistant', content: [] };
      messages.push(assistant);
    }
    return assistant;
  };
  for (const { seq, event } of events) {
    const payload = event as unknown as Payload;
    const type = ownStatus(event.type, payload, logOf);
    // A child thread's call cross-posted for the client to answer is that thread's, not this log's.
    if (TOOL_USE_TYPES.has(type) && payload.session_thread_id) continue;
    const outcome = outcomeMessage(type, payload);
    // A message from another thread of the session is input like a user's.
    if (
      type === 'user.message' ||
      type === 'system.message' ||
      type === 'agent.thread_message_received' ||
      outcome
    ) {
      const blocks = outcome ?? toBlocks(payload.content);
      const message: ChatMessage = {
        role: 'user',
        content: type === 'system.message' ? asSystemNote(blocks) : blocks,
      };
      received.push({ seq, message });
      if (inTurn) lateInput.push(message);
      else place(message);
    } else if (type === 'session.status_running') {
      inTurn = true;
    } else if (type === 'span.model_request_start') {
      assistant = undefined;
      unanswered.clear();
      flushDeferred();
    } else if (TURN_END_TYPES.has(type)) {
      inTurn = false;
      if (unanswered.size === 0 && deferred.length) {
        assistant = undefined;
        flushDeferred();
      }
      for (const message of lateInput) place(message);
      lateInput = [];
    } else if (type === 'agent.message') {
      openAssistant().content.push(...toBlocks(payload.content));
    } else if (TOOL_USE_TYPES.has(type)) {
      const call: ToolCall = {
        id: event.id,
        name: toolName(payload),
        input: (payload.input ?? {}) as Record<string, unknown>,
      };
      const target = openAssistant();
      target.toolCalls = [...(target.toolCalls ?? []), call];
      unanswered.add(call.id);
    } else if (TOOL_RESULT_TYPES.has(type)) {
      const toolCallId = String(payload.tool_use_id ?? payload.mcp_tool_use_id);
      messages.push({
        role: 'tool',
        toolCallId,
        toolName: nameOfCall(messages, toolCallId),
        content: toBlocks(payload.content),
        isError: payload.is_error === true,
      });
      unanswered.delete(toolCallId);
      if (unanswered.size === 0 && deferred.length) {
        assistant = undefined;
        flushDeferred();
      }
    } else if (type === COMPACTION_EVENT && typeof payload.summary === 'string') {
      // A compaction is written mid-turn: input its turn had not read waits for that turn's end.
      assistant = undefined;
      unanswered.clear();
      deferred = [];
      messages = contextOf(payload);
      lateInput = unreadBy(payload, received);
      received = [];
      inTurn = true;
    }
  }
  flushDeferred();
  messages.push(...lateInput);
  return messages;
}

/** The conversation as the compactor left it: its summary, then the recent messages it kept. */
function contextOf(payload: Payload): ChatMessage[] {
  if (Array.isArray(payload.context)) return [...(payload.context as ChatMessage[])];
  const summary = `Summary of the conversation so far:\n\n${String(payload.summary)}`;
  return [{ role: 'user', content: [{ type: 'text', text: summary }] }];
}

/**
 * Messages appended after the compacting turn read the log (`context_through_seq`): that turn never saw
 * them, so never kept them. An event from before `context_through_seq` was recorded brings none.
 */
function unreadBy(payload: Payload, received: Array<{ seq: number; message: ChatMessage }>): ChatMessage[] {
  const through = typeof payload.context_through_seq === 'number' ? payload.context_through_seq : Infinity;
  return received.filter((r) => r.seq > through).map((r) => r.message);
}

/** Stamps a compaction event with the last seq its turn had read, for `unreadBy`. */
export function withReadThrough<E extends { type: string }>(event: E, seq: number): E {
  return event.type === COMPACTION_EVENT ? { ...event, context_through_seq: seq } : event;
}

function toolName(payload: Payload): string {
  const name = inputText(payload.name);
  const server = payload.mcp_server_name ?? payload.server_name;
  return typeof server === 'string' && !name.startsWith('mcp__') ? `mcp__${server}__${name}` : name;
}

function nameOfCall(messages: ChatMessage[], id: string): string {
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    const call = message.toolCalls?.find((c) => c.id === id);
    if (call) return call.name;
  }
  return 'unknown';
}

function toBlocks(content: unknown): ContentBlock[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.flatMap((block: Payload): ContentBlock[] => {
    if (block.type === 'text' && typeof block.text === 'string') return [{ type: 'text', text: block.text }];
    const source = block.source as Payload | undefined;
    if (block.type === 'image' && source?.type === 'base64') {
      return [{ type: 'image', mediaType: String(source.media_type), data: String(source.data) }];
    }
    return [];
  });
}

function asSystemNote(blocks: ContentBlock[]): ContentBlock[] {
  return blocks.map((b) => (b.type === 'text' ? { type: 'text', text: `[system] ${b.text}` } : b));
}
