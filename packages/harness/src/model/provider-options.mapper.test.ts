import { describe, expect, it } from 'vitest';
import { AnthropicMessagesModel } from './anthropic/anthropic-messages.model.js';
import type { ModelRequest } from './model-port.js';
import { OpenAiChatModel } from './openai/openai-chat.model.js';

const request: ModelRequest = {
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  maxTokens: 100,
  temperature: 0.2,
  // `attempt` is harness bookkeeping and must never reach a provider.
  options: {
    attempt: 2,
    reasoning_effort: 'low',
    thinking: { type: 'enabled', budget_tokens: 1024 },
    extraBody: { custom_flag: true },
  },
};

describe('provider request bodies', () => {
  it('OpenAI-compatible: passes known options and extraBody, drops harness keys, honours the max-tokens field', () => {
    const model = new OpenAiChatModel({
      id: 'openai/gpt-4.1',
      model: 'gpt-4.1',
      baseUrl: 'http://127.0.0.1:9/v1',
      contextWindow: 1000,
      maxTokensField: 'max_completion_tokens',
    });
    const body = model.buildBody(request) as unknown as Record<string, unknown>;
    expect(body).toMatchObject({
      model: 'gpt-4.1',
      reasoning_effort: 'low',
      custom_flag: true,
      max_completion_tokens: 100,
      temperature: 0.2,
      stream: true,
    });
    expect(body).not.toHaveProperty('attempt');
    expect(body).not.toHaveProperty('thinking');
    expect(body).not.toHaveProperty('max_tokens');
  });

  it('Anthropic: passes thinking and extraBody, drops harness and OpenAI-only keys', () => {
    const model = new AnthropicMessagesModel({
      id: 'anthropic/claude-x',
      model: 'claude-x',
      apiKey: 'k',
      contextWindow: 1000,
    });
    const body = model.buildBody(request) as unknown as Record<string, unknown>;
    expect(body).toMatchObject({
      model: 'claude-x',
      max_tokens: 100,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      custom_flag: true,
    });
    expect(body).not.toHaveProperty('attempt');
    expect(body).not.toHaveProperty('reasoning_effort');
  });
});
