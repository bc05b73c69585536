import OpenAI from 'openai';
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
} from 'openai/resources/chat/completions';
import { AppError } from '@agentry/contracts';
import type { ModelPort, ModelRequest, ModelStreamEvent } from '../model-port.js';
import { ModelRetryPolicy, type ModelRetryOptions } from '../model-retry.policy.js';
import { toModelError, type ProviderFailure } from '../provider-error.mapper.js';
import { OPENAI_OPTION_KEYS, pickProviderOptions } from '../provider-options.mapper.js';
import { toOpenAiMessages, toOpenAiTools } from './openai-request.mapper.js';
import { OpenAiStreamAccumulator } from './openai-stream.accumulator.js';

export interface OpenAiChatModelOptions {
  /** Port id, e.g. "openai/gpt-4.1". */
  id: string;
  /** Model name sent on the wire, e.g. "gpt-4.1". */
  model: string;
  baseUrl: string;
  /** Local servers (vLLM, Ollama) accept any key. */
  apiKey?: string;
  headers?: Record<string, string>;
  contextWindow: number;
  maxTokens?: number;
  /** OpenAI's newer models want max_completion_tokens; compatible servers still read max_tokens. */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /** Ask for usage in the last chunk (stream_options.include_usage); off for servers that reject it. */
  streamUsage?: boolean;
  timeoutMs?: number;
  retry?: ModelRetryOptions;
}

/** ModelPort over OpenAI-compatible chat completions (OpenAI, DashScope compatible mode, vLLM, Ollama). */
export class OpenAiChatModel implements ModelPort {
  readonly id: string;
  readonly contextWindow: number;
  private readonly client: OpenAI;
  private readonly retry: ModelRetryPolicy;

  constructor(private readonly options: OpenAiChatModelOptions) {
    this.id = options.id;
    this.contextWindow = options.contextWindow;
    this.client = new OpenAI({
      baseURL: options.baseUrl,
      apiKey: options.apiKey ?? 'unused',
      // Explicit nulls keep the SDK from reading OPENAI_ORG_ID / OPENAI_PROJECT_ID from the environment.
      organization: null,
      project: null,
      defaultHeaders: options.headers,
      timeout: options.timeoutMs ?? 600_000,
      // Retries are ours (ModelRetryPolicy) so backoff, Retry-After and abort behave the same for every provider.
      maxRetries: 0,
    });
    this.retry = new ModelRetryPolicy(options.retry);
  }

  stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<ModelStreamEvent> {
    return this.retry.run(
      () => this.attempt(request, signal),
      (error) => this.toAppError(error, signal),
      signal,
    );
  }

  buildBody(request: ModelRequest): ChatCompletionCreateParamsStreaming {
    const maxTokens = request.maxTokens ?? this.options.maxTokens;
    const tools = toOpenAiTools(request.tools);
    const body: ChatCompletionCreateParamsStreaming = {
      ...pickProviderOptions(request.options, OPENAI_OPTION_KEYS),
      model: this.options.model,
      messages: toOpenAiMessages(request.messages),
      stream: true,
      ...(this.options.streamUsage === false ? {} : { stream_options: { include_usage: true } }),
      ...(tools ? { tools, parallel_tool_calls: true } : {}),
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    };
    if (maxTokens !== undefined) body[this.options.maxTokensField ?? 'max_tokens'] = maxTokens;
    return body;
  }

  private async *attempt(request: ModelRequest, signal?: AbortSignal): AsyncGenerator<ModelStreamEvent> {
    const stream = await this.client.chat.completions.create(this.buildBody(request), { signal });
    const accumulator = new OpenAiStreamAccumulator(this.id);
    for await (const chunk of stream as AsyncIterable<ChatCompletionChunk>) {
      // Servers report some failures (e.g. vLLM mid-stream) as an `error` member of a chunk.
      const inline = (chunk as { error?: { message?: string; code?: string; type?: string } }).error;
      if (inline) throw this.inlineFailure(inline);
      yield* accumulator.push(chunk);
    }
    yield accumulator.finish();
  }

  private inlineFailure(inline: { message?: string; code?: string | number; type?: string }): AppError {
    const code = typeof inline.code === 'number' ? inline.code : undefined;
    return toModelError(
      {
        kind: 'status',
        status: code,
        message: inline.message ?? 'stream error',
        errorType: inline.type,
        errorCode: typeof inline.code === 'string' ? inline.code : undefined,
        cause: inline,
      },
      this.id,
    );
  }

  private toAppError(error: unknown, signal?: AbortSignal): AppError {
    if (AppError.is(error)) return error;
    return toModelError(describeOpenAiFailure(error, signal), this.id);
  }
}

function describeOpenAiFailure(error: unknown, signal?: AbortSignal): ProviderFailure {
  const message = error instanceof Error ? error.message : String(error);
  if (signal?.aborted || error instanceof OpenAI.APIUserAbortError)
    return { kind: 'aborted', message, cause: error };
  if (error instanceof OpenAI.APIConnectionTimeoutError) return { kind: 'timeout', message, cause: error };
  if (error instanceof OpenAI.APIConnectionError) return { kind: 'connection', message, cause: error };
  if (error instanceof OpenAI.APIError) {
    return {
      kind: 'status',
      // The SDK's error class leaves both untyped: a status code and the response's headers.
      status: error.status as number | undefined,
      headers: error.headers as Headers | undefined,
      message,
      errorType: typeof error.type === 'string' ? error.type : undefined,
      errorCode: typeof error.code === 'string' ? error.code : undefined,
      cause: error,
    };
  }
  // A broken body stream (socket reset) surfaces as a plain error.
  return { kind: 'connection', message, cause: error };
}
