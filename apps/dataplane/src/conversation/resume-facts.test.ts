import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '@agentry/harness';
import type { StoredEvent } from '@agentry/contracts';
import { resumeFacts } from './resume-facts.js';

let seq = 0;
const ev = (id: string, type: string, fields: Record<string, unknown> = {}): StoredEvent =>
  ({
    seq: ++seq,
    event: { id, type, processed_at: null, created_at: '2026-11-30T12:00:00.000Z', ...fields },
  }) as unknown as StoredEvent;
const at = '2026-11-30T12:00:01.000Z';

const conversation: ChatMessage[] = [
  { role: 'user', content: [{ type: 'text', text: 'go' }] },
  { role: 'assistant', content: [], toolCalls: [{ id: 'sevt_w', name: 'write', input: {} }] },
];
const log = [
  ev('sevt_u', 'user.message'),
  ev('sevt_w', 'agent.tool_use', { name: 'write', input: {}, evaluated_permission: 'allow' }),
];
const written = {
  toolUseId: 'sevt_w',
  content: [{ type: 'text' as const, text: 'wrote 3 bytes' }],
  isError: false,
};

describe('what the log says of the calls a turn resumes with', () => {
  it('reports an allowed call without a result as cut off, unless a self-hosted worker runs it', async () => {
    expect((await resumeFacts(conversation, log, [])).cutOff).toEqual({ sevt_w: {} });
    expect(await resumeFacts(conversation, log, [], { awaitsWorker: (name) => name === 'write' })).toEqual({
      approvals: {},
      toolResults: {},
      cutOff: {},
    });
  });

  it('brings the result the Hands recorded for a cut-off call', async () => {
    const facts = await resumeFacts(conversation, log, [], {
      recorded: (id) => Promise.resolve(id === 'sevt_w' ? written : null),
    });
    expect(facts.cutOff).toEqual({ sevt_w: { recorded: { content: written.content, isError: false } } });
  });

  it('says a cut-off call without a record still runs while the worker that took it is alive', async () => {
    const alive = await resumeFacts(conversation, log, [], {
      recorded: () => Promise.resolve(null),
      stillRunning: (id) => Promise.resolve(id === 'sevt_w'),
    });
    expect(alive.cutOff).toEqual({ sevt_w: { stillRunning: true } });
    // A record wins; a lookup that fails (Redis away) says nothing runs it.
    const recorded = await resumeFacts(conversation, log, [], {
      recorded: () => Promise.resolve(written),
      stillRunning: () => Promise.resolve(true),
    });
    expect(recorded.cutOff).toEqual({ sevt_w: { recorded: { content: written.content, isError: false } } });
    const unknown = await resumeFacts(conversation, log, [], {
      stillRunning: () => Promise.reject(new Error('redis away')),
    });
    expect(unknown.cutOff).toEqual({ sevt_w: {} });
  });

  it('takes the first result a worker delivered, even one a crashed turn already consumed', async () => {
    const consumed = ev('sevt_r1', 'user.tool_result', {
      tool_use_id: 'sevt_w',
      content: [{ type: 'text', text: 'first' }],
      processed_at: at,
    });
    const late = ev('sevt_r2', 'user.tool_result', {
      tool_use_id: 'sevt_w',
      content: [{ type: 'text', text: 'second' }],
      is_error: true,
    });
    const facts = await resumeFacts(conversation, [...log, consumed, late], [late], {
      awaitsWorker: () => true,
    });
    expect(facts.toolResults.sevt_w).toEqual({ content: [{ type: 'text', text: 'first' }], isError: false });
  });

  it('treats a call a consumed confirmation let run as cut off, and one still in the inbox as an answer', async () => {
    const asked = [
      ev('sevt_u2', 'user.message'),
      ev('sevt_w', 'agent.tool_use', { name: 'write', input: {}, evaluated_permission: 'ask' }),
    ];
    const allowedEarlier = ev('sevt_c1', 'user.tool_confirmation', {
      tool_use_id: 'sevt_w',
      result: 'allow',
      processed_at: at,
    });
    expect(await resumeFacts(conversation, [...asked, allowedEarlier], [])).toEqual({
      approvals: {},
      toolResults: {},
      cutOff: { sevt_w: {} },
    });
    const allowedNow = ev('sevt_c2', 'user.tool_confirmation', { tool_use_id: 'sevt_w', result: 'allow' });
    expect(await resumeFacts(conversation, [...asked, allowedNow], [allowedNow])).toEqual({
      approvals: { sevt_w: { decision: 'allow' } },
      toolResults: {},
      cutOff: {},
    });
    // Still waiting for the user: neither an answer nor cut off.
    expect((await resumeFacts(conversation, asked, [])).cutOff).toEqual({});
  });
});
