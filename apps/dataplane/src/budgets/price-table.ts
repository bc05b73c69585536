import type { ModelPrice } from '../config/budget-settings.js';

/** Token counts of one model call, in the platform's wire spelling. */
export interface TokenCounts {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

/**
 * Built-in list prices (USD per million tokens). Keys match a model id exactly, its name after the
 * `provider/` prefix, or the longest key the name starts with (`claude-sonnet-4-5-20250929` → `claude-sonnet-4-5`).
 * `scripted` has a price so budgets can be exercised without a provider; `*` prices any other model.
 */
const DEFAULT_MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  'claude-opus-4': { input: 15, output: 75, cache_read: 1.5, cache_write: 18.75 },
  'claude-opus-4-1': { input: 15, output: 75, cache_read: 1.5, cache_write: 18.75 },
  'claude-sonnet-4': { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 },
  'claude-sonnet-4-5': { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 },
  'claude-haiku-4-5': { input: 1, output: 5, cache_read: 0.1, cache_write: 1.25 },
  'claude-3-5-haiku': { input: 0.8, output: 4, cache_read: 0.08, cache_write: 1 },
  'gpt-4.1': { input: 2, output: 8, cache_read: 0.5 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6, cache_read: 0.1 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4, cache_read: 0.025 },
  'gpt-4o': { input: 2.5, output: 10, cache_read: 1.25 },
  'gpt-4o-mini': { input: 0.15, output: 0.6, cache_read: 0.075 },
  'qwen-max': { input: 1.6, output: 6.4 },
  'qwen-plus': { input: 0.4, output: 1.2 },
  'qwen-turbo': { input: 0.05, output: 0.2 },
  scripted: { input: 1, output: 5 },
  '*': { input: 3, output: 15 },
};

/** Per-model list prices: the defaults with the installation's overrides on top. Costs are in micro-USD. */
export class PriceTable {
  private readonly prices: Record<string, ModelPrice>;

  constructor(overrides: Record<string, ModelPrice> = {}) {
    this.prices = { ...DEFAULT_MODEL_PRICES, ...overrides };
  }

  /** The price a model id is billed at (see DEFAULT_MODEL_PRICES for how ids match). */
  priceOf(modelId: string): ModelPrice {
    const id = modelId.trim();
    const exact = this.prices[id];
    if (exact) return exact;
    const name = id.includes('/') ? id.slice(id.indexOf('/') + 1) : id;
    if (this.prices[name]) return this.prices[name];
    const prefix = Object.keys(this.prices)
      .filter((key) => key !== '*' && name.startsWith(key))
      .sort((a, b) => b.length - a.length)[0];
    return (prefix ? this.prices[prefix] : undefined) ?? this.prices['*']!;
  }

  /** List cost of one call in micro-USD, rounded up (tokens × USD per million tokens = micro-USD). */
  costMicros(modelId: string, usage: TokenCounts): number {
    const price = this.priceOf(modelId);
    const micros =
      usage.input_tokens * price.input +
      usage.output_tokens * price.output +
      (usage.cache_read_input_tokens ?? 0) * (price.cache_read ?? price.input) +
      (usage.cache_creation_input_tokens ?? 0) * (price.cache_write ?? price.input);
    return Math.ceil(micros - 1e-9);
  }
}
