import { describe, expect, it } from 'vitest';
import { defaultModelId, ModelEnvSchema } from './model-env.js';

describe('defaultModelId', () => {
  it('is scripted when no provider key is set', () => {
    expect(defaultModelId(ModelEnvSchema.parse({}))).toBe('scripted');
    expect(defaultModelId(ModelEnvSchema.parse({ ANTHROPIC_API_KEY: '' }))).toBe('scripted');
  });

  it('follows the first configured key, and a configured default wins over all', () => {
    expect(defaultModelId({ ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o' })).toBe('claude-sonnet-4-5');
    expect(defaultModelId({ OPENAI_API_KEY: 'o' })).toBe('openai/gpt-4.1');
    expect(defaultModelId({ DASHSCOPE_API_KEY: 'd' })).toBe('dashscope/qwen-plus');
    expect(
      defaultModelId(ModelEnvSchema.parse({ OPENAI_API_KEY: 'o', AGENTRY_DEFAULT_MODEL: ' vllm/qwen ' })),
    ).toBe('vllm/qwen');
  });
});
