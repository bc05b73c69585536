import { AppError } from '@agentry/contracts';
import type { ModelProviderConfig, ModelProvidersConfig } from './model-providers.config.js';
import { parseModelId, resolveModel } from './model.resolver.js';

/** The provider settings an installation takes from its environment (variable names as documented). */
export interface ModelProviderEnv {
  ANTHROPIC_API_KEY?: string | undefined;
  ANTHROPIC_BASE_URL?: string | undefined;
  OPENAI_API_KEY?: string | undefined;
  OPENAI_BASE_URL?: string | undefined;
  DASHSCOPE_API_KEY?: string | undefined;
}

/** Where the key of each provider comes from, for messages that say what to set. */
const KEY_VARIABLES: Readonly<Record<string, string>> = {
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'OPENAI_API_KEY',
  dashscope: 'DASHSCOPE_API_KEY',
};

/** Providers configured by the environment: a key, or a base URL of a compatible server. */
export function modelProvidersFromEnv(env: ModelProviderEnv): Record<string, Partial<ModelProviderConfig>> {
  const providers: Record<string, Partial<ModelProviderConfig>> = {};
  if (env.ANTHROPIC_API_KEY || env.ANTHROPIC_BASE_URL) {
    providers.anthropic = {
      apiKey: env.ANTHROPIC_API_KEY,
      ...(env.ANTHROPIC_BASE_URL ? { baseUrl: env.ANTHROPIC_BASE_URL } : {}),
    };
  }
  if (env.OPENAI_API_KEY || env.OPENAI_BASE_URL) {
    providers.openai = {
      apiKey: env.OPENAI_API_KEY,
      ...(env.OPENAI_BASE_URL ? { baseUrl: env.OPENAI_BASE_URL } : {}),
    };
  }
  if (env.DASHSCOPE_API_KEY) providers.dashscope = { apiKey: env.DASHSCOPE_API_KEY };
  return providers;
}

/** Provider names an agent's model can use here: `scripted` and every provider given settings. */
export function configuredProviders(config: ModelProvidersConfig): string[] {
  return ['scripted', ...Object.keys(config.providers ?? {})];
}

/**
 * Why the installation cannot serve a model id, as a 400 naming the configured providers and what to set;
 * undefined when it can. Nothing is called: only the configuration is consulted.
 */
export function unservableModelError(id: string, config: ModelProvidersConfig): AppError | undefined {
  try {
    const { provider } = parseModelId(id);
    if (provider === 'scripted') return undefined;
    resolveModel(id, { ...config, scripted: undefined });
    return undefined;
  } catch (error) {
    if (!AppError.is(error)) throw error;
    return new AppError('INVALID_REQUEST', unservableMessage(id, error, config), {
      details: { model: id, configured_providers: configuredProviders(config) },
    });
  }
}

/** Throws the 400 of `unservableModelError`. */
export function assertModelServable(id: string, config: ModelProvidersConfig): void {
  const error = unservableModelError(id, config);
  if (error) throw error;
}

function unservableMessage(id: string, cause: AppError, config: ModelProvidersConfig): string {
  const provider = typeof cause.details?.provider === 'string' ? cause.details.provider : undefined;
  const variable = provider ? KEY_VARIABLES[provider] : undefined;
  const configured = configuredProviders(config).join(', ');
  const remedy = variable
    ? `set ${variable} on the installation, or choose a model of a configured provider (e.g. "scripted")`
    : 'choose a model of a configured provider (e.g. "scripted" or "openai/gpt-4.1")';
  return `model: "${id}" cannot be served by this installation (${lowerFirst(cause.message)}). Configured providers: ${configured}. To fix it, ${remedy}.`;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
