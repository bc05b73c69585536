import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '@agentry/contracts';
import { openToolCalls } from '@agentry/harness';
import { buildConversation } from './conversation-builder.js';
import { withWaitingMessages } from './resume-facts.js';

let seq = 0;
const ev = (id: string, type: string, fields: Record<string, unknown> = {}): StoredEvent =>
  ({
    seq: ++seq,
    event: { id, type, processed_at: null, created_at: '2026-11-30T12:00:00.000Z', ...fields },
  }) as unknown as StoredEvent;
const say = (id: string, text: string) => ev(id, 'user.message', { content: [{ type: 'text', text }] });
const roles = (events: StoredEvent[]) =>
  buildConversation(events).map((m) => (m.role === 'tool' ? `tool:${m.toolCallId}` : m.role));

const suspended = [
  say('sevt_1', 'write it'),
  ev('sevt_2', 'span.model_request_start'),
  ev('sevt_w', 'agent.tool_use', { name: 'write', input: {}, evaluated_permission: 'allow' }),
  say('sevt_3', 'and then say bye'),
];

describe('conversation rebuilt from the log', () => {
  it("places a message sent while a call was out after that call's result", () => {
    expect(roles(suspended)).toEqual(['user', 'assistant', 'user']);
    const answered = [
      ...suspended,
      ev('sevt_r', 'agent.tool_result', { tool_use_id: 'sevt_w', content: [] }),
    ];
    expect(roles(answered)).toEqual(['user', 'assistant', 'tool:sevt_w', 'user']);
    const next = [
      ...answered,
      ev('sevt_4', 'span.model_request_start'),
      ev('sevt_5', 'agent.message', { content: [{ type: 'text', text: 'bye' }] }),
    ];
    expect(roles(next)).toEqual(['user', 'assistant', 'tool:sevt_w', 'user', 'assistant']);
  });

  it('places a message sent while the model was answering after that answer, for the turn that reads it', () => {
    const interleaved = [
      say('sevt_a1', 'hello 1'),
      ev('sevt_a2', 'session.status_running'),
      ev('sevt_a3', 'span.model_request_start'),
      say('sevt_a4', 'hello 2'),
      ev('sevt_a5', 'span.model_request_end'),
      ev('sevt_a6', 'agent.message', { content: [{ type: 'text', text: 'You said: hello 1' }] }),
      ev('sevt_a7', 'session.status_idle', { stop_reason: { type: 'end_turn' } }),
      ev('sevt_a8', 'session.status_running'),
    ];
    const conversation = buildConversation(interleaved);
    expect(conversation.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(conversation.at(-1)?.content).toEqual([{ type: 'text', text: 'hello 2' }]);
    // The same while the answer is still being written: the message waits for it.
    expect(roles(interleaved.slice(0, 5))).toEqual(['user', 'user']);
  });

  it("reads a thread's own status events as its turns, and none cross-posted from other threads", () => {
    const thread = (own: string) => [
      say('sevt_t1', 'hello 1'),
      ev('sevt_t2', 'session.thread_status_running', { session_thread_id: own }),
      ev('sevt_t3', 'span.model_request_start'),
      say('sevt_t4', 'hello 2'),
      ev('sevt_t5', 'agent.message', { content: [{ type: 'text', text: 'You said: hello 1' }] }),
      ev('sevt_t6', 'session.thread_status_idle', {
        session_thread_id: own,
        stop_reason: { type: 'end_turn' },
      }),
    ];
    // In the thread's own log the message sent mid-turn waits for the turn's end: after the answer.
    expect(buildConversation(thread('sthr_me'), 'sthr_me').map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
    ]);
    // Another thread's statuses (cross-posted to the primary) mark no turn here: the message is placed as it came.
    expect(buildConversation(thread('sthr_other'), 'sesn_primary').map((m) => m.role)).toEqual([
      'user',
      'user',
      'assistant',
    ]);
  });

  it("leaves out a thread's tool call cross-posted to the primary's log", () => {
    const log = [
      say('sevt_x1', 'go'),
      ev('sevt_x2', 'span.model_request_start'),
      ev('sevt_x3', 'agent.message', { content: [{ type: 'text', text: 'Sent.' }] }),
      ev('sevt_x4', 'agent.tool_use', { name: 'bash', input: {}, session_thread_id: 'sthr_a' }),
    ];
    expect(openToolCalls(buildConversation(log, 'sesn_primary'))).toEqual([]);
    expect(roles(log)).toEqual(['user', 'assistant']);
  });

  it('places a message sent between two model calls of one turn after that turn, which never read it', () => {
    const log = [
      say('sevt_b1', 'list the files'),
      ev('sevt_b2', 'session.status_running'),
      ev('sevt_b3', 'span.model_request_start'),
      ev('sevt_bt', 'agent.tool_use', { name: 'bash', input: {}, evaluated_permission: 'allow' }),
      ev('sevt_br', 'agent.tool_result', { tool_use_id: 'sevt_bt', content: [] }),
      say('sevt_b4', 'and count them'),
      ev('sevt_b5', 'span.model_request_start'),
      ev('sevt_b6', 'agent.message', { content: [{ type: 'text', text: 'Two files.' }] }),
      ev('sevt_b7', 'session.status_idle', { stop_reason: { type: 'end_turn' } }),
    ];
    expect(roles(log)).toEqual(['user', 'assistant', 'tool:sevt_bt', 'assistant', 'user']);
  });

  it('hands waiting messages to the harness as new only once every open call can be answered', () => {
    const conversation = buildConversation(suspended);
    const waiting = withWaitingMessages(conversation, { approvals: {}, toolResults: {} });
    expect(waiting).toEqual({ conversation });
    const ready = withWaitingMessages(conversation, {
      approvals: {},
      toolResults: { sevt_w: { content: 'ok' } },
    });
    expect(ready.conversation.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(ready.newMessages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'and then say bye' }] },
    ]);
  });
});

describe('conversation rebuilt after a compaction', () => {
  const reply = (id: string, text: string) => [
    ev(`${id}_span`, 'span.model_request_start'),
    ev(id, 'agent.message', { content: [{ type: 'text', text }] }),
  ];
  const text = (t: string) => [{ type: 'text', text: t }];
  const kept = [
    { role: 'user', content: text('<conversation_summary>asked a first question</conversation_summary>') },
    { role: 'user', content: text('second question') },
    { role: 'assistant', content: text('second answer') },
    { role: 'user', content: text('third question') },
  ];
  const texts = (events: StoredEvent[]) =>
    buildConversation(events).map((m) => {
      const content =
        typeof m.content === 'string'
          ? m.content
          : m.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
      return `${m.role}:${content}`;
    });

  it('continues from the summary and the recent messages the compactor kept', () => {
    const log = [
      say('sevt_q1', 'first question'),
      ...reply('sevt_a1', 'first answer'),
      say('sevt_q2', 'second question'),
      ...reply('sevt_a2', 'second answer'),
      say('sevt_q3', 'third question'),
      ev('sevt_c', 'agent.thread_context_compacted', {
        summary: 'asked a first question',
        context: kept,
        context_through_seq: seq,
      }),
      ...reply('sevt_a3', 'third answer'),
      say('sevt_q4', 'fourth question'),
    ];
    expect(texts(log)).toEqual([
      'user:<conversation_summary>asked a first question</conversation_summary>',
      'user:second question',
      'assistant:second answer',
      'user:third question',
      'assistant:third answer',
      'user:fourth question',
    ]);
  });

  it('rebuilds the same conversation from the last compaction on as from the whole log', () => {
    const before = [
      say('sevt_q1', 'first question'),
      ...reply('sevt_a1', 'first answer'),
      say('sevt_q2', 'second question'),
      ...reply('sevt_a2', 'second answer'),
      say('sevt_q3', 'third question'),
    ];
    const compaction = ev('sevt_c', 'agent.thread_context_compacted', {
      summary: 's',
      context: kept,
      context_through_seq: seq,
    });
    const after = [...reply('sevt_a3', 'third answer'), say('sevt_q4', 'fourth question')];
    expect(buildConversation([compaction, ...after])).toEqual(
      buildConversation([...before, compaction, ...after]),
    );
  });

  it('keeps a message that arrived while the compacting turn ran, which that turn never read, after that turn', () => {
    const log = [
      say('sevt_q3', 'third question'),
      say('sevt_late', 'sent during the turn'),
      ev('sevt_c', 'agent.thread_context_compacted', {
        summary: 's',
        context: kept,
        context_through_seq: seq - 1,
      }),
      ...reply('sevt_a3', 'third answer'),
    ];
    // The compacting turn answered the third question without ever seeing the late message: the turn that
    // consumes it reads it after that answer, and answers it (it would otherwise find nothing to answer).
    expect(texts(log).slice(1)).toEqual([
      'user:second question',
      'assistant:second answer',
      'user:third question',
      'assistant:third answer',
      'user:sent during the turn',
    ]);
    // The same from the log as a later turn reads it: from what the compacting turn had read on.
    const withStatuses = [
      ev('sevt_r', 'session.status_running'),
      ...log.slice(1),
      ev('sevt_i', 'session.status_idle'),
      say('sevt_next', 'and another'),
    ];
    expect(texts(withStatuses).slice(-3)).toEqual([
      'assistant:third answer',
      'user:sent during the turn',
      'user:and another',
    ]);
  });

  it('keeps tool calls and their results the compactor kept, so their results can be named', () => {
    const keptWithTool = [
      {
        role: 'assistant',
        content: [],
        toolCalls: [{ id: 'sevt_t', name: 'bash', input: { command: 'ls' } }],
      },
      { role: 'tool', toolCallId: 'sevt_t', toolName: 'bash', content: text('a.txt'), isError: false },
    ];
    const conversation = buildConversation([
      ev('sevt_c', 'agent.thread_context_compacted', {
        summary: 's',
        context: keptWithTool,
        context_through_seq: 0,
      }),
      say('sevt_q', 'what next?'),
    ]);
    expect(conversation.map((m) => m.role)).toEqual(['assistant', 'tool', 'user']);
    expect(openToolCalls(conversation)).toEqual([]);
  });
});

describe('conversation rebuilt after a compaction recorded with its summary only', () => {
  it('starts from that summary', () => {
    const conversation = buildConversation([
      say('sevt_old', 'forgotten'),
      ev('sevt_c', 'agent.thread_context_compacted', { summary: 'the user said hello' }),
      say('sevt_new', 'and now?'),
    ]);
    expect(conversation).toEqual([
      {
        role: 'user',
        content: [{ type: 'text', text: 'Summary of the conversation so far:\n\nthe user said hello' }],
      },
      { role: 'user', content: [{ type: 'text', text: 'and now?' }] },
    ]);
  });
});
