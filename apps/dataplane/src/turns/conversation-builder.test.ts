import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '@agentry/contracts';
import { buildConversation } from './conversation-builder.js';
import { withWaitingMessages } from './recovery-plan.js';

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
