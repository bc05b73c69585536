import { describe, expect, it } from 'vitest';
import type { ChatMessage, ToolCall } from '../model/model-port.js';
import { openToolCalls, planResume, resumesWithoutWaiting, type ResumeFacts } from './resume-plan.js';

const call = (id: string, name: string): ToolCall => ({ id, name, input: {} });
const READ = call('sevt_read', 'read');
const WRITE = call('sevt_write', 'write');
const idempotent = (name: string) => name === 'read';
const text = (t: string) => [{ type: 'text' as const, text: t }];

type Fate = 'run' | 'waits' | { status: 'ok' | 'error'; text: RegExp };

/** One row per situation an open call can be in when a run resumes; `fate` is what the plan does with it. */
const CASES: Array<{ situation: string; call: ToolCall; facts: ResumeFacts; fate: Fate }> = [
  {
    situation: 'a worker delivered a result',
    call: WRITE,
    facts: { toolResults: { sevt_write: { content: 'written' } } },
    fate: { status: 'ok', text: /"written"/ },
  },
  {
    situation: 'a worker delivered a failure',
    call: WRITE,
    facts: { toolResults: { sevt_write: { content: 'disk full', isError: true } } },
    fate: { status: 'error', text: /disk full/ },
  },
  {
    situation: 'a delivered result wins over a cut-off record',
    call: WRITE,
    facts: { toolResults: { sevt_write: { content: 'delivered' } }, cutOff: { sevt_write: {} } },
    fate: { status: 'ok', text: /"delivered"/ },
  },
  {
    situation: 'cut off after its Hands recorded the result',
    call: WRITE,
    facts: { cutOff: { sevt_write: { recorded: { content: text('wrote 3 bytes') } } } },
    fate: { status: 'ok', text: /"wrote 3 bytes"/ },
  },
  {
    situation: 'cut off after its Hands recorded a failure',
    call: WRITE,
    facts: { cutOff: { sevt_write: { recorded: { content: text('no such dir'), isError: true } } } },
    fate: { status: 'error', text: /no such dir/ },
  },
  {
    situation: 'cut off with nothing recorded, idempotent',
    call: READ,
    facts: { cutOff: { sevt_read: {} } },
    fate: 'run',
  },
  {
    situation: 'cut off with nothing recorded, not idempotent',
    call: WRITE,
    facts: { cutOff: { sevt_write: {} } },
    fate: { status: 'error', text: /interrupted by a restart and may or may not have run/ },
  },
  {
    situation: 'cut off with nothing recorded, not idempotent, its worker still running it',
    call: WRITE,
    facts: { cutOff: { sevt_write: { stillRunning: true } } },
    fate: 'run',
  },
  {
    situation: 'cut off, not idempotent, even if a confirmation is still around',
    call: WRITE,
    facts: { cutOff: { sevt_write: {} }, approvals: { sevt_write: { decision: 'allow' } } },
    fate: { status: 'error', text: /may or may not have run/ },
  },
  {
    situation: 'the user allowed it',
    call: WRITE,
    facts: { approvals: { sevt_write: { decision: 'allow' } } },
    fate: 'run',
  },
  {
    situation: 'the user denied it with a message',
    call: WRITE,
    facts: { approvals: { sevt_write: { decision: 'deny', message: 'not there' } } },
    fate: { status: 'error', text: /permission_denied\] not there/ },
  },
  { situation: 'nobody answered yet', call: WRITE, facts: {}, fate: 'waits' },
];

describe('what happens to an open tool call when a run resumes', () => {
  it.each(CASES)('$situation', ({ call, facts, fate }) => {
    const plan = planResume([call], facts, idempotent);
    if (fate === 'run') expect(plan.approved).toEqual([call]);
    else if (fate === 'waits') expect(plan.unresolved).toEqual([call]);
    else {
      const outcome = plan.ready.get(call.id);
      expect(outcome?.status).toBe(fate.status);
      expect(JSON.stringify(outcome && 'content' in outcome ? outcome.content : '')).toMatch(fate.text);
    }
    // Every call lands in exactly one place.
    expect(plan.approved.length + plan.unresolved.length + plan.ready.size).toBe(1);
    expect(resumesWithoutWaiting([call], facts)).toBe(fate !== 'waits');
  });

  it('finds the open calls after the last assistant message only', () => {
    const conversation: ChatMessage[] = [
      { role: 'user', content: text('go') },
      { role: 'assistant', content: [], toolCalls: [READ, WRITE] },
      { role: 'tool', toolCallId: READ.id, toolName: 'read', content: text('a') },
    ];
    expect(openToolCalls(conversation)).toEqual([WRITE]);
    expect(openToolCalls([...conversation, { role: 'assistant', content: text('done') }])).toEqual([]);
  });
});
