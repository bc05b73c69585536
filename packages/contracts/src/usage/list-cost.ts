/** List-cost amounts travel as decimal strings (CMA's `{amount, currency}`); arithmetic is done in micro-USD. */

/** `"5.00"` (USD) in micro-USD; amounts carry at most six decimals. */
export function toMicros(amount: string): number {
  const match = /^(\d+)(?:\.(\d{1,6}))?$/.exec(amount.trim());
  if (!match) throw new Error(`"${amount}" is not a non-negative decimal amount with at most six decimals`);
  return Number(match[1]) * 1_000_000 + Number((match[2] ?? '').padEnd(6, '0'));
}

/** Micro-USD as a decimal string with at least two decimals (`1234500` → `"1.2345"`). */
export function fromMicros(micros: number): string {
  const whole = Math.floor(micros / 1_000_000);
  const fraction = String(micros % 1_000_000)
    .padStart(6, '0')
    .replace(/0+$/, '')
    .padEnd(2, '0');
  return `${whole}.${fraction}`;
}

/**
 * A session's stored usage totals in the CMA shape: the list cost is kept in micro-USD under
 * `list_cost_micros` (so totals add up key by key) and shown as `list_cost {amount, currency}`.
 */
export function toUsageSnapshot(stored: Record<string, number>): Record<string, unknown> {
  const { list_cost_micros: micros, ...tokens } = stored;
  return { ...tokens, list_cost: { amount: fromMicros(micros ?? 0), currency: 'USD' } };
}
