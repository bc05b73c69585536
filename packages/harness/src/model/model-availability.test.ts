import { describe, expect, it } from 'vitest';
import { AppError } from '@agentry/contracts';
import {
  assertModelServable,
  configuredProviders,
  modelProvidersFromEnv,
  unservableModelError,
} from './model-availability.js';

describe('model availability', () => {
  const config = {
    providers: modelProvidersFromEnv({ OPENAI_API_KEY: 'sk-x', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/' }),
  };

  it('knows a provider from its key or from the base URL of a compatible server', () => {
    expect(configuredProviders(config)).toEqual(['scripted', 'anthropic', 'openai']);
    expect(configuredProviders({ providers: modelProvidersFromEnv({}) })).toEqual(['scripted']);
  });

  it('serves scripted, configured providers and keyless local ones', () => {
    for (const id of ['scripted', 'openai/gpt-4.1', 'claude-sonnet-4-5', 'vllm/qwen'])
      expect(unservableModelError(id, config)).toBeUndefined();
  });

  it('refuses a provider without a key, naming what to set and the configured providers', () => {
    const error = unservableModelError('dashscope/qwen-plus', config)!;
    expect(AppError.is(error, 'INVALID_REQUEST')).toBe(true);
    expect(error.message).toBe(
      'model: "dashscope/qwen-plus" cannot be served by this installation (no API key is configured for model provider "dashscope"). ' +
        'Configured providers: scripted, anthropic, openai. To fix it, set DASHSCOPE_API_KEY on the installation, or choose a model of a configured provider (e.g. "scripted").',
    );
    expect(error.details).toEqual({
      model: 'dashscope/qwen-plus',
      configured_providers: ['scripted', 'anthropic', 'openai'],
    });
  });

  it('refuses unknown providers and ids without a provider', () => {
    expect(() => assertModelServable('mystery/model-1', config)).toThrow(
      /unknown model provider "mystery".*Configured providers: scripted, anthropic, openai/,
    );
    expect(() => assertModelServable('gpt-4.1', config)).toThrow(/must look like "provider\/model"/);
  });
});
