import { AppError } from '@agentry/contracts';
import { AnthropicMessagesModel } from './anthropic/anthropic-messages.model.js';
import type { ModelPort } from './model-port.js';
import {
  BUILTIN_MODEL_PROVIDERS,
  KEYLESS_PROVIDERS,
  type ModelProviderConfig,
  type ModelProvidersConfig,
} from './model-providers.config.js';
import { OpenAiChatModel } from './openai/openai-chat.model.js';

const FALLBACK_CONTEXT_WINDOW = 128_000;

/** Splits "provider/model" ("openai/gpt-4.1"); a bare "claude-*" id means Anthropic. */
export function parseModelId(id: string): { provider: string; model: string } {
  const trimmed = id.trim();
  if (trimmed === 'scripted' || trimmed.startsWith('scripted/'))
    return { provider: 'scripted', model: trimmed.slice(9) };
  const slash = trimmed.indexOf('/');
  if (slash > 0 && slash < trimmed.length - 1)
    return { provider: trimmed.slice(0, slash), model: trimmed.slice(slash + 1) };
  if (trimmed.startsWith('claude-')) return { provider: 'anthropic', model: trimmed };
  throw new AppError(
    'INVALID_REQUEST',
    `Model id "${id}" must look like "provider/model" (e.g. "openai/gpt-4.1")`,
    {
      details: { model: id },
    },
  );
}

/** Builds the ModelPort for a model id from configuration (never from the process environment). */
export function resolveModel(
  id: string,
  config: ModelProvidersConfig = {},
  settings?: Record<string, unknown>,
): ModelPort {
  const { provider, model } = parseModelId(id);
  if (provider === 'scripted') {
    if (!config.scripted)
      throw new AppError('INVALID_REQUEST', 'The scripted model is not available in this configuration');
    return config.scripted({ id: id.trim(), ...(settings ? { settings } : {}) });
  }
  const resolved = providerConfig(provider, config);
  const portId = `${provider}/${model}`;
  const contextWindow =
    resolved.contextWindows?.[model] ?? resolved.defaultContextWindow ?? FALLBACK_CONTEXT_WINDOW;
  if (
    !resolved.apiKey &&
    !KEYLESS_PROVIDERS.has(provider) &&
    resolved.baseUrl === BUILTIN_MODEL_PROVIDERS[provider]?.baseUrl
  ) {
    throw new AppError('UNAUTHENTICATED', `No API key is configured for model provider "${provider}"`, {
      details: { provider },
    });
  }
  if (resolved.api === 'anthropic') {
    return new AnthropicMessagesModel({
      id: portId,
      model,
      baseUrl: resolved.baseUrl,
      apiKey: resolved.apiKey ?? 'unused',
      headers: resolved.headers,
      contextWindow,
      maxTokens: resolved.maxTokens,
      promptCaching: resolved.promptCaching,
      timeoutMs: resolved.timeoutMs,
      retry: config.retry,
    });
  }
  if (!resolved.baseUrl) {
    throw new AppError('INVALID_REQUEST', `Model provider "${provider}" has no baseUrl`, {
      details: { provider },
    });
  }
  return new OpenAiChatModel({
    id: portId,
    model,
    baseUrl: resolved.baseUrl,
    apiKey: resolved.apiKey,
    headers: resolved.headers,
    contextWindow,
    maxTokens: resolved.maxTokens,
    maxTokensField: resolved.maxTokensField,
    streamUsage: resolved.streamUsage,
    timeoutMs: resolved.timeoutMs,
    retry: config.retry,
  });
}

function providerConfig(provider: string, config: ModelProvidersConfig): ModelProviderConfig {
  const builtin = BUILTIN_MODEL_PROVIDERS[provider];
  const custom = config.providers?.[provider];
  if (!builtin && !custom) {
    throw new AppError('INVALID_REQUEST', `Unknown model provider "${provider}"`, { details: { provider } });
  }
  const api = custom?.api ?? builtin?.api ?? 'openai';
  return {
    ...builtin,
    ...custom,
    api,
    contextWindows: { ...builtin?.contextWindows, ...custom?.contextWindows },
  };
}
