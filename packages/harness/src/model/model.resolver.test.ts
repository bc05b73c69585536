import { describe, expect, it } from 'vitest';
import type { ModelPort } from './model-port.js';
import { AnthropicMessagesModel } from './anthropic/anthropic-messages.model.js';
import { parseModelId, resolveModel } from './model.resolver.js';
import { OpenAiChatModel } from './openai/openai-chat.model.js';

describe('parseModelId', () => {
  it('splits provider/model, keeps slashes in the model, and sends bare claude-* ids to Anthropic', () => {
    expect(parseModelId('openai/gpt-4.1')).toEqual({ provider: 'openai', model: 'gpt-4.1' });
    expect(parseModelId('vllm/Qwen/Qwen3-8B')).toEqual({ provider: 'vllm', model: 'Qwen/Qwen3-8B' });
    expect(parseModelId('claude-sonnet-4-5')).toEqual({ provider: 'anthropic', model: 'claude-sonnet-4-5' });
    expect(() => parseModelId('gpt-4.1')).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
  });
});

describe('resolveModel', () => {
  const config = {
    providers: {
      openai: { apiKey: 'sk-test' },
      anthropic: { apiKey: 'ak-test' },
      dashscope: { apiKey: 'ds-test', contextWindows: { 'qwen-max': 30_000 } },
      local: { api: 'openai' as const, baseUrl: 'http://127.0.0.1:1234/v1', defaultContextWindow: 4096 },
    },
  };

  it('builds the adapter of each provider with its context window', () => {
    const gpt = resolveModel('openai/gpt-4.1', config);
    expect(gpt).toBeInstanceOf(OpenAiChatModel);
    expect(gpt).toMatchObject({ id: 'openai/gpt-4.1', contextWindow: 1_047_576 });
    expect(resolveModel('dashscope/qwen-max', config)).toMatchObject({
      id: 'dashscope/qwen-max',
      contextWindow: 30_000,
    });
    const claude = resolveModel('claude-sonnet-4-5', config);
    expect(claude).toBeInstanceOf(AnthropicMessagesModel);
    expect(claude).toMatchObject({ id: 'anthropic/claude-sonnet-4-5', contextWindow: 200_000 });
    expect(resolveModel('ollama/llama3.2', config)).toBeInstanceOf(OpenAiChatModel);
    expect(resolveModel('local/any', config)).toMatchObject({ id: 'local/any', contextWindow: 4096 });
  });

  it('refuses unknown providers and hosted providers without a key', () => {
    expect(() => resolveModel('nope/x', config)).toThrow(
      expect.objectContaining({ code: 'INVALID_REQUEST' }),
    );
    expect(() => resolveModel('openai/gpt-4.1', {})).toThrow(
      expect.objectContaining({ code: 'UNAUTHENTICATED' }),
    );
  });

  it('hands scripted ids and the model settings to the injected factory', () => {
    const fake: ModelPort = { id: 'scripted', contextWindow: 1000, stream: async function* () {} };
    const seen: unknown[] = [];
    const scripted = (options: unknown) => (seen.push(options), fake);
    expect(resolveModel('scripted', { scripted }, { script: [] })).toBe(fake);
    expect(seen).toEqual([{ id: 'scripted', settings: { script: [] } }]);
    expect(() => resolveModel('scripted', {})).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
  });
});
