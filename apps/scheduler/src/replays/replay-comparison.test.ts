import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '@agentry/contracts';
import { compareTurns } from './replay-comparison.js';
import { answersFor } from './recorded-answers.js';
import { splitTurns, turnState } from './recorded-turns.js';

let seq = 0;
const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();
const ev = (payload: Record<string, unknown>, ms = seq * 10): StoredEvent =>
  ({
    seq: ++seq,
    event: { id: `sevt_${seq}`, processed_at: null, created_at: at(ms), ...payload },
  }) as unknown as StoredEvent;
const text = (t: string) => [{ type: 'text', text: t }];
const user = (t: string) => ev({ type: 'user.message', content: text(t) });
const say = (t: string) => ev({ type: 'agent.message', content: text(t) });
const call = (name: string, input: Record<string, unknown>, type = 'agent.tool_use') =>
  ev({ type, name, input });
const idle = (stop: Record<string, unknown> = { type: 'end_turn' }) =>
  ev({ type: 'session.status_idle', stop_reason: stop });
const running = () => ev({ type: 'session.status_running' });
const usage = (input: number, output: number) =>
  ev({
    type: 'span.model_request_end',
    model_request_start_id: 'x',
    is_error: false,
    model_usage: {
      input_tokens: input,
      output_tokens: output,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    },
  });

describe('replay comparison', () => {
  it('is same for equal text and calls (key order aside), changed otherwise, failed when the replay did not end its turn', () => {
    const original = splitTurns([
      user('a'),
      running(),
      call('write', { file_path: 'x', content: 'y' }),
      usage(10, 5),
      say('done a'),
      idle(),
      user('b'),
      running(),
      say('done b'),
      idle(),
      user('c'),
      running(),
      say('done c'),
      idle(),
      user('d'),
      running(),
      say('done d'),
      idle(),
    ]);
    const replayed = splitTurns([
      user('a'),
      running(),
      call('write', { content: 'y', file_path: 'x' }),
      usage(7, 3),
      say('done a'),
      idle(),
      user('b'),
      running(),
      call('read', { file_path: 'x' }),
      say('done b'),
      idle(),
      user('c'),
      running(),
      ev({
        type: 'session.error',
        error: { type: 'model_overloaded_error', message: 'busy', retry_status: { type: 'exhausted' } },
      }),
      idle({ type: 'retries_exhausted' }),
    ]);
    const { turns, summary } = compareTurns(original, replayed);
    expect(turns.map((t) => t.verdict)).toEqual(['same', 'changed', 'failed', 'failed']);
    expect(summary).toEqual({ turns: 4, same: 1, changed: 1, failed: 2 });
    expect(turns[0]!.original).toMatchObject({ input_tokens: 10, output_tokens: 5, final_message: 'done a' });
    expect(turns[0]!.replay).toMatchObject({ input_tokens: 7, output_tokens: 3, stop_reason: 'end_turn' });
    expect(turns[2]!.replay!.errors).toEqual([{ type: 'model_overloaded_error', message: 'busy' }]);
    expect(turns[3]!.replay).toBeNull();
  });

  it('changes the verdict when only the final text differs', () => {
    const a = splitTurns([user('a'), say('x'), idle()]);
    const b = splitTurns([user('a'), say('y'), idle()]);
    expect(compareTurns(a, b).turns[0]!.verdict).toBe('changed');
  });

  it("answers the replay's open calls with the original's answers to the call of the same name and input", () => {
    const asked = call('lookup', { key: 'k' }, 'agent.custom_tool_use');
    const original = splitTurns([
      user('q'),
      running(),
      asked,
      idle({ type: 'requires_action', event_ids: [asked.event.id] }),
      ev({ type: 'user.custom_tool_result', custom_tool_use_id: asked.event.id, content: text('42') }),
      running(),
      say('42'),
      idle(),
    ])[0]!;
    const again = call('lookup', { key: 'k' }, 'agent.custom_tool_use');
    const other = call('lookup', { key: 'other' }, 'agent.custom_tool_use');
    const replayed = splitTurns([
      user('q'),
      running(),
      again,
      other,
      idle({ type: 'requires_action', event_ids: [again.event.id] }),
    ])[0]!;
    const state = turnState(replayed);
    expect(state).toEqual({ kind: 'requires_action', eventIds: [again.event.id] });
    expect(answersFor(original, replayed, [again.event.id])).toEqual([
      { type: 'user.custom_tool_result', custom_tool_use_id: again.event.id, content: text('42') },
    ]);
    expect(answersFor(original, replayed, [other.event.id])).toBeNull();
  });

  it('counts a turn whose open calls all have answers in the log as running, and its cost as the growth of the list cost', () => {
    const asked = call('lookup', { key: 'k' }, 'agent.custom_tool_use');
    const cost = (amount: string) =>
      ev({ type: 'session.usage', usage: { list_cost: { amount, currency: 'USD' } } });
    const [first, second] = splitTurns([
      user('a'),
      cost('0.010000'),
      idle(),
      user('b'),
      running(),
      asked,
      cost('0.025000'),
      idle({ type: 'requires_action', event_ids: [asked.event.id] }),
      ev({ type: 'user.custom_tool_result', custom_tool_use_id: asked.event.id, content: text('x') }),
    ]);
    expect(turnState(second!)).toEqual({ kind: 'running' });
    expect(compareTurns([first!], [first!]).turns[0]!.original.cost).toEqual({
      amount: '0.010000',
      currency: 'USD',
    });
    expect(compareTurns([second!], []).turns[0]!.original.cost).toEqual({
      amount: '0.015000',
      currency: 'USD',
    });
  });
});
