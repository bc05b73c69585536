import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '@agentry/harness';
import type { StoredEvent } from '@agentry/contracts';
import { planResume } from './recovery-plan.js';

let seq = 0;
const ev = (id: string, type: string, fields: Record<string, unknown> = {}): StoredEvent =>
  ({
    seq: ++seq,
    event: { id, type, processed_at: null, created_at: '2026-11-30T12:00:00.000Z', ...fields },
  }) as unknown as StoredEvent;

const conversation: ChatMessage[] = [
  { role: 'user', content: [{ type: 'text', text: 'go' }] },
  { role: 'assistant', content: [], toolCalls: [{ id: 'sevt_w', name: 'write', input: {} }] },
];
const log = [
  ev('sevt_u', 'user.message'),
  ev('sevt_w', 'agent.tool_use', { name: 'write', input: {}, evaluated_permission: 'allow' }),
];

describe('resume plan', () => {
  it('reports a cut-off call as possibly run, unless a self-hosted worker runs it (then it stays pending)', () => {
    expect(planResume(conversation, log, []).toolResults.sevt_w).toMatchObject({ isError: true });
    expect(planResume(conversation, log, [], { awaitsWorker: (name) => name === 'write' })).toEqual({
      approvals: {},
      toolResults: {},
    });
  });

  it('takes the first result a worker delivered, even one a crashed turn already consumed', () => {
    const consumed = ev('sevt_r1', 'user.tool_result', {
      tool_use_id: 'sevt_w',
      content: [{ type: 'text', text: 'first' }],
      processed_at: '2026-11-30T12:00:01.000Z',
    });
    const late = ev('sevt_r2', 'user.tool_result', {
      tool_use_id: 'sevt_w',
      content: [{ type: 'text', text: 'second' }],
      is_error: true,
    });
    const plan = planResume(conversation, [...log, consumed, late], [late], { awaitsWorker: () => true });
    expect(plan.toolResults.sevt_w).toEqual({ content: [{ type: 'text', text: 'first' }], isError: false });
  });
});
