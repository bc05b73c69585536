import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '@agentry/contracts';
import { pendingSelfHostedCalls, redundantToolResults } from './tool-call-ledger.js';

let seq = 0;
const ev = (id: string, type: string, fields: Record<string, unknown> = {}): StoredEvent =>
  ({
    seq: ++seq,
    event: { id, type, processed_at: null, created_at: '2026-11-30T12:00:00.000Z', ...fields },
  }) as unknown as StoredEvent;
const use = (id: string, name: string, permission = 'allow') =>
  ev(id, 'agent.tool_use', { name, input: { file_path: 'a' }, evaluated_permission: permission });

describe('tool call ledger', () => {
  it('lists allowed or confirmed self-hosted calls that nobody answered, in order', () => {
    const log = [
      use('sevt_w', 'write'),
      use('sevt_b', 'bash'),
      ev('sevt_r1', 'user.tool_result', { tool_use_id: 'sevt_b' }),
      use('sevt_f', 'web_fetch'),
      use('sevt_e', 'edit', 'ask'),
      use('sevt_g', 'grep', 'ask'),
      ev('sevt_c', 'user.tool_confirmation', { tool_use_id: 'sevt_g', result: 'allow' }),
      use('sevt_d', 'read', 'deny'),
      ev('sevt_r2', 'agent.tool_result', { tool_use_id: 'sevt_d', is_error: true }),
    ];
    expect(pendingSelfHostedCalls(log).map((c) => [c.toolUseId, c.name])).toEqual([
      ['sevt_w', 'write'],
      ['sevt_g', 'grep'],
    ]);
  });

  it('marks results redundant when the call is unknown, already answered by the Brain, or delivered earlier', () => {
    const first = ev('sevt_r1', 'user.tool_result', { tool_use_id: 'sevt_w' });
    const again = ev('sevt_r2', 'user.tool_result', { tool_use_id: 'sevt_w' });
    const closed = ev('sevt_r3', 'user.tool_result', { tool_use_id: 'sevt_x' });
    const stray = ev('sevt_r4', 'user.tool_result', { tool_use_id: 'sevt_nope' });
    const fresh = ev('sevt_r5', 'user.tool_result', { tool_use_id: 'sevt_y' });
    const log = [
      use('sevt_w', 'write'),
      use('sevt_x', 'bash'),
      ev('sevt_a', 'agent.tool_result', { tool_use_id: 'sevt_x' }),
      use('sevt_y', 'read'),
      first,
      again,
      closed,
      stray,
      fresh,
    ];
    expect(redundantToolResults(log, [first, again, closed, stray, fresh])).toEqual([
      'sevt_r2',
      'sevt_r3',
      'sevt_r4',
    ]);
    // Once the first delivery is consumed, a later one for the same call changes nothing either.
    expect(redundantToolResults(log, [again])).toEqual(['sevt_r2']);
  });
});
