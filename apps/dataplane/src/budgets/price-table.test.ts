import { describe, expect, it } from 'vitest';
import { DataplaneEnvSchema } from '../config/env.js';
import { PriceTable } from './price-table.js';

const BASE_ENV = {
  DATABASE_URL: 'postgresql://x@localhost/db',
  REDIS_URL: 'redis://localhost:6379',
  NATS_URL: 'nats://localhost:4222',
};

describe('price table', () => {
  it('prices known models by id, by name after the provider prefix, and by the longest matching prefix', () => {
    const prices = new PriceTable();
    expect(prices.priceOf('anthropic/claude-sonnet-4-5')).toMatchObject({ input: 3, output: 15 });
    expect(prices.priceOf('claude-sonnet-4-5-20250929')).toMatchObject({ input: 3, output: 15 });
    expect(prices.priceOf('openai/gpt-4.1-mini')).toMatchObject({ input: 0.4, output: 1.6 });
    expect(prices.priceOf('scripted')).toEqual({ input: 1, output: 5 });
    expect(prices.priceOf('vllm/some-local-model')).toEqual({ input: 3, output: 15 });
  });

  it('computes list cost in micro-USD (tokens × USD per million tokens), cache tokens at their own price, rounded up', () => {
    const prices = new PriceTable();
    expect(prices.costMicros('claude-sonnet-4-5', { input_tokens: 1_000, output_tokens: 100 })).toBe(4_500);
    expect(
      prices.costMicros('claude-sonnet-4-5', {
        input_tokens: 0,
        output_tokens: 0,
        cache_read_input_tokens: 1_000,
        cache_creation_input_tokens: 1_000,
      }),
    ).toBe(300 + 3_750);
    expect(prices.costMicros('gpt-4.1-nano', { input_tokens: 3, output_tokens: 0 })).toBe(1);
  });

  it('takes overrides from AGENTRY_MODEL_PRICES and rejects a malformed table at startup', () => {
    const env = DataplaneEnvSchema.parse({
      ...BASE_ENV,
      AGENTRY_MODEL_PRICES: '{"scripted":{"input":100,"output":200},"my-model":{"input":1,"output":2}}',
    });
    const prices = new PriceTable(env.AGENTRY_MODEL_PRICES);
    expect(prices.costMicros('scripted', { input_tokens: 10, output_tokens: 10 })).toBe(3_000);
    expect(prices.priceOf('ollama/my-model')).toEqual({ input: 1, output: 2 });
    expect(prices.priceOf('claude-haiku-4-5')).toMatchObject({ input: 1, output: 5 });

    const bad = DataplaneEnvSchema.safeParse({
      ...BASE_ENV,
      AGENTRY_MODEL_PRICES: '{"scripted":{"input":-1,"output":2}}',
    });
    expect(bad.success).toBe(false);
    expect(JSON.stringify(bad.error?.issues)).toMatch(/scripted\.input/);
    expect(DataplaneEnvSchema.safeParse({ ...BASE_ENV, AGENTRY_MODEL_PRICES: 'not json' }).success).toBe(
      false,
    );
  });
});
