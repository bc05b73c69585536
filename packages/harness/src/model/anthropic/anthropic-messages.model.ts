import type Anthropic from '@anthropic-ai/sdk';
import type {
  MessageCreateParamsStreaming,
  RawMessageStreamEvent,
} from '@anthropic-ai/sdk/resources/messages';
import { AppError } from '@agentry/contracts';
import type { ModelPort, ModelRequest, ModelStreamEvent } from '../model-port.js';
import { ModelRetryPolicy, type ModelRetryOptions } from '../model-retry.policy.js';
import { toModelError, type ProviderFailure } from '../provider-error.mapper.js';
import { ANTHROPIC_OPTION_KEYS, pickProviderOptions } from '../provider-options.mapper.js';
import { toAnthropicRequest, toAnthropicTools } from './anthropic-request.mapper.js';
import { AnthropicStreamAccumulator } from './anthropic-stream.accumulator.js';

type AnthropicSdk = typeof import('@anthropic-ai/sdk').default;

export interface AnthropicMessagesModelOptions {
  /** Port id, e.g. "anthropic/claude-sonnet-4-5". */
  id: string;
  /** Model name sent on the wire. */
  model: string;
  baseUrl?: string;
  apiKey: string;
  headers?: Record<string, string>;
  contextWindow: number;
  /** The Messages API requires max_tokens; used when the request sets none (default 8192). */
  maxTokens?: number;
  /** Mark cache breakpoints on the system prompt and the latest message (default true). */
  promptCaching?: boolean;
  timeoutMs?: number;
  retry?: ModelRetryOptions;
}

/** ModelPort over the Anthropic Messages API (streaming). */
export class AnthropicMessagesModel implements ModelPort {
  readonly id: string;
  readonly contextWindow: number;
  private readonly retry: ModelRetryPolicy;
  private sdk: AnthropicSdk | undefined;
  private client: Promise<Anthropic> | undefined;

  constructor(private readonly options: AnthropicMessagesModelOptions) {
    this.id = options.id;
    this.contextWindow = options.contextWindow;
    this.retry = new ModelRetryPolicy(options.retry);
  }

  stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<ModelStreamEvent> {
    return this.retry.run(
      () => this.attempt(request, signal),
      (error) => this.toAppError(error, signal),
      signal,
    );
  }

  buildBody(request: ModelRequest): MessageCreateParamsStreaming {
    const { system, messages } = toAnthropicRequest(request.messages, this.options.promptCaching ?? true);
    const tools = toAnthropicTools(request.tools);
    return {
      ...pickProviderOptions(request.options, ANTHROPIC_OPTION_KEYS),
      model: this.options.model,
      max_tokens: request.maxTokens ?? this.options.maxTokens ?? 8192,
      messages,
      stream: true,
      ...(system ? { system } : {}),
      ...(tools ? { tools } : {}),
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    };
  }

  private async *attempt(request: ModelRequest, signal?: AbortSignal): AsyncGenerator<ModelStreamEvent> {
    const client = await this.loadClient();
    const stream = await client.messages.create(this.buildBody(request), { signal });
    const accumulator = new AnthropicStreamAccumulator(this.id);
    for await (const event of stream as AsyncIterable<RawMessageStreamEvent>) yield* accumulator.push(event);
    yield accumulator.finish();
  }

  // The SDK (and the tracing it brings) is loaded on first use, so importing the harness stays light.
  private loadClient(): Promise<Anthropic> {
    this.client ??= import('@anthropic-ai/sdk').then(({ default: Sdk }) => {
      this.sdk = Sdk;
      return new Sdk({
        apiKey: this.options.apiKey,
        // Always explicit, so the SDK never falls back to ANTHROPIC_BASE_URL from the environment.
        baseURL: this.options.baseUrl ?? 'https://api.anthropic.com',
        defaultHeaders: this.options.headers,
        timeout: this.options.timeoutMs ?? 600_000,
        // Retries are ours (ModelRetryPolicy) so backoff, Retry-After and abort behave the same for every provider.
        maxRetries: 0,
      });
    });
    return this.client;
  }

  private toAppError(error: unknown, signal?: AbortSignal): AppError {
    if (AppError.is(error)) return error;
    return toModelError(describeAnthropicFailure(error, this.sdk, signal), this.id);
  }
}

function describeAnthropicFailure(
  error: unknown,
  sdk: AnthropicSdk | undefined,
  signal?: AbortSignal,
): ProviderFailure {
  const message = error instanceof Error ? error.message : String(error);
  if (signal?.aborted || (sdk && error instanceof sdk.APIUserAbortError))
    return { kind: 'aborted', message, cause: error };
  if (!sdk) return { kind: 'connection', message: `cannot load the Anthropic SDK: ${message}`, cause: error };
  if (error instanceof sdk.APIConnectionTimeoutError) return { kind: 'timeout', message, cause: error };
  if (error instanceof sdk.APIConnectionError) return { kind: 'connection', message, cause: error };
  if (error instanceof sdk.APIError) {
    const body = error.error as { error?: { type?: unknown; message?: unknown } } | undefined;
    const type = typeof body?.error?.type === 'string' ? body.error.type : undefined;
    const detail = typeof body?.error?.message === 'string' ? body.error.message : message;
    return {
      kind: 'status',
      // The SDK's error class leaves both untyped: a status code and the response's headers.
      status: error.status as number | undefined,
      headers: error.headers as Headers | undefined,
      message: detail,
      errorType: type,
      cause: error,
    };
  }
  // A broken body stream (socket reset) surfaces as a plain error.
  return { kind: 'connection', message, cause: error };
}
