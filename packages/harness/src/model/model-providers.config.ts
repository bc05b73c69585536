import type { ModelPort } from './model-port.js';
import type { ModelRetryOptions } from './model-retry.policy.js';

/** One provider endpoint. `api` picks the wire dialect. */
export interface ModelProviderConfig {
  api: 'openai' | 'anthropic';
  baseUrl?: string;
  apiKey?: string;
  headers?: Record<string, string>;
  /** Context window per wire model name; falls back to `defaultContextWindow`. */
  contextWindows?: Record<string, number>;
  defaultContextWindow?: number;
  maxTokens?: number;
  timeoutMs?: number;
  /** OpenAI dialect only: see OpenAiChatModelOptions. */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  streamUsage?: boolean;
  /** Anthropic dialect only. */
  promptCaching?: boolean;
}

/** Options the scripted model factory receives: the full id and the agent's model settings (the script). */
export interface ScriptedModelFactoryOptions {
  id: string;
  settings?: Record<string, unknown>;
}

export interface ModelProvidersConfig {
  /** Keyed by the provider prefix of a model id ("openai", "dashscope", "my-vllm"). Merged over the built-ins. */
  providers?: Record<string, Partial<ModelProviderConfig>>;
  retry?: ModelRetryOptions;
  scripted?: (options: ScriptedModelFactoryOptions) => ModelPort;
}

/** Endpoints known without configuration; keys still come from config. */
export const BUILTIN_MODEL_PROVIDERS: Readonly<Record<string, ModelProviderConfig>> = {
  openai: {
    api: 'openai',
    baseUrl: 'https://api.openai.com/v1',
    maxTokensField: 'max_completion_tokens',
    defaultContextWindow: 128_000,
    contextWindows: {
      'gpt-4.1': 1_047_576,
      'gpt-4.1-mini': 1_047_576,
      'gpt-4o': 128_000,
      'gpt-4o-mini': 128_000,
    },
  },
  dashscope: {
    api: 'openai',
    baseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
    defaultContextWindow: 131_072,
    contextWindows: { 'qwen-max': 32_768, 'qwen-plus': 131_072, 'qwen-turbo': 1_000_000 },
  },
  vllm: { api: 'openai', baseUrl: 'http://127.0.0.1:8000/v1', defaultContextWindow: 32_768 },
  ollama: { api: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', defaultContextWindow: 8_192 },
  anthropic: { api: 'anthropic', baseUrl: 'https://api.anthropic.com', defaultContextWindow: 200_000 },
};

/** Providers that serve locally and accept any key. */
export const KEYLESS_PROVIDERS: ReadonlySet<string> = new Set(['vllm', 'ollama']);
