import type { StoredEvent } from '@agentry/contracts';
import { describe, expect, it } from 'vitest';
import { confirmationTimeoutOf, expiredAsks } from './expired-confirmations.js';

let seq = 0;
const at = (second: number, fields: Record<string, unknown>): StoredEvent =>
  ({
    seq: ++seq,
    event: { processed_at: null, created_at: new Date(second * 1000).toISOString(), ...fields },
  }) as unknown as StoredEvent;

describe('expiredAsks', () => {
  const log = [
    at(0, { id: 'ask_a', type: 'agent.tool_use', name: 'bash', input: {}, evaluated_permission: 'ask' }),
    at(0, { id: 'ask_b', type: 'agent.mcp_tool_use', name: 'x', input: {}, evaluated_permission: 'ask' }),
    at(0, { id: 'ask_c', type: 'agent.tool_use', name: 'bash', input: {}, evaluated_permission: 'ask' }),
    at(0, { id: 'allowed', type: 'agent.tool_use', name: 'bash', input: {}, evaluated_permission: 'allow' }),
    at(0, { id: 'custom', type: 'agent.custom_tool_use', name: 'lookup', input: {} }),
    at(1, { id: 'r1', type: 'user.tool_confirmation', tool_use_id: 'ask_c', result: 'allow' }),
    at(5, { id: 'late', type: 'agent.tool_use', name: 'bash', input: {}, evaluated_permission: 'ask' }),
  ];

  it('names the unanswered ask calls made at least the timeout ago, and nothing else', () => {
    expect(expiredAsks(log, 10, new Date(10_000))).toEqual(['ask_a', 'ask_b']);
    expect(expiredAsks(log, 10, new Date(15_000))).toEqual(['ask_a', 'ask_b', 'late']);
    expect(expiredAsks(log, 10, new Date(9_999))).toEqual([]);
  });

  it('leaves calls that already have a result', () => {
    const answered = [
      ...log,
      at(2, { id: 'res', type: 'agent.tool_result', tool_use_id: 'ask_a', content: [], is_error: false }),
    ];
    expect(expiredAsks(answered, 10, new Date(10_000))).toEqual(['ask_b']);
  });
});

describe('confirmationTimeoutOf', () => {
  it('reads the frozen environment config, undefined when unset', () => {
    expect(
      confirmationTimeoutOf({
        environment: { config: { type: 'cloud', tool_confirmation_timeout_seconds: 30 } },
      }),
    ).toBe(30);
    expect(confirmationTimeoutOf({ environment: { config: { type: 'cloud' } } })).toBeUndefined();
    expect(confirmationTimeoutOf(null)).toBeUndefined();
  });
});
