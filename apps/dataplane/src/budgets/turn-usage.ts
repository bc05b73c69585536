import type { TokenCounts } from './price-table.js';

/**
 * Usage of one turn's model calls, as settled: what the turn adds to the session's `usage` totals
 * (list cost kept in micro-USD under `list_cost_micros`, shown as `list_cost`).
 */
export class TurnUsage {
  private readonly totals = {
    input_tokens: 0,
    output_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 0,
    list_cost_micros: 0,
  };
  private calls = 0;

  add(usage: Required<TokenCounts>, costMicros: number): void {
    this.calls += 1;
    this.totals.input_tokens += usage.input_tokens;
    this.totals.output_tokens += usage.output_tokens;
    this.totals.cache_read_input_tokens += usage.cache_read_input_tokens;
    this.totals.cache_creation_input_tokens += usage.cache_creation_input_tokens;
    this.totals.list_cost_micros += costMicros;
  }

  get empty(): boolean {
    return this.calls === 0;
  }

  /** Keys added one by one to the session row's usage. */
  increments(): Record<string, number> {
    return { ...this.totals };
  }
}
