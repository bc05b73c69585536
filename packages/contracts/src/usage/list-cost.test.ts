import { describe, expect, it } from 'vitest';
import { BudgetLimitSchema } from '../session-events/outbound-events.js';
import { fromMicros, toMicros, toUsageSnapshot } from './list-cost.js';

describe('list cost amounts', () => {
  it('converts decimal USD to micro-USD and back without floating-point drift', () => {
    expect(toMicros('5.00')).toBe(5_000_000);
    expect(toMicros('0.000001')).toBe(1);
    expect(toMicros('0.29')).toBe(290_000);
    expect(fromMicros(290_000)).toBe('0.29');
    expect(fromMicros(1_234_500)).toBe('1.2345');
    expect(fromMicros(0)).toBe('0.00');
    expect(() => toMicros('1.2345678')).toThrow(/at most six decimals/);
  });

  it('shows stored usage totals with list_cost as an amount', () => {
    expect(toUsageSnapshot({ input_tokens: 10, output_tokens: 4, list_cost_micros: 1_800 })).toEqual({
      input_tokens: 10,
      output_tokens: 4,
      list_cost: { amount: '0.0018', currency: 'USD' },
    });
  });

  it('accepts budgets only as decimal USD amounts', () => {
    expect(
      BudgetLimitSchema.safeParse({ type: 'limit', max_list_cost: { amount: '5.00', currency: 'USD' } })
        .success,
    ).toBe(true);
    const bad = BudgetLimitSchema.safeParse({
      type: 'limit',
      max_list_cost: { amount: 'five', currency: 'USD' },
    });
    expect(bad.error?.issues[0]?.message).toMatch(/decimal USD amount/);
  });
});
