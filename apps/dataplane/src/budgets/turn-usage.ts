import type { TokenCounts } from './price-table.js';

/**
 * Usage of one turn's model calls, as settled (list cost kept in micro-USD under `list_cost_micros`,
 * shown as `list_cost`). Each settlement adds its call to the session's `usage` totals itself; the turn
 * keeps the totals the last one returned for its `session.usage` event.
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
  /** The session's (or thread's) totals as the last settlement of this turn left them. */
  sessionTotals: Record<string, number> | null = null;

  add(
    usage: Required<TokenCounts>,
    costMicros: number,
    sessionTotals: Record<string, number> | null = null,
  ): void {
    this.calls += 1;
    if (sessionTotals) this.sessionTotals = sessionTotals;
    this.totals.input_tokens += usage.input_tokens;
    this.totals.output_tokens += usage.output_tokens;
    this.totals.cache_read_input_tokens += usage.cache_read_input_tokens;
    this.totals.cache_creation_input_tokens += usage.cache_creation_input_tokens;
    this.totals.list_cost_micros += costMicros;
  }

  get empty(): boolean {
    return this.calls === 0;
  }

  /** What this turn's calls added to the session's usage totals. */
  increments(): Record<string, number> {
    return { ...this.totals };
  }
}
