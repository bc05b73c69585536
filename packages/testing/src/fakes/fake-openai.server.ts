import type { ServerResponse } from 'node:http';
import {
  FakeHttpListener,
  sendJson,
  splitText,
  writeSse,
  type RecordedRequest,
} from './fake-http.listener.js';
import { isChatCompletionRequest, type ChatCompletionRequest } from './fake-openai.request.js';

interface FakeOpenAiToolCall {
  id?: string;
  name: string;
  /** An object is serialized; a string is sent as is (to test malformed arguments). */
  arguments: Record<string, unknown> | string;
}

interface FakeOpenAiUsage {
  promptTokens: number;
  completionTokens: number;
  cachedTokens?: number;
}

/** What the fake answers to the next chat completion request. */
export type FakeOpenAiReply =
  | {
      kind?: 'message';
      text?: string;
      /** Sent as `reasoning_content` deltas, as DashScope and vLLM do. */
      reasoning?: string;
      toolCalls?: FakeOpenAiToolCall[];
      finishReason?: string;
      usage?: FakeOpenAiUsage;
      /** Characters per streamed delta (default 4). */
      chunkSize?: number;
    }
  | { kind: 'error'; status: number; body: unknown; headers?: Record<string, string> }
  /** Sends the headers and `text` (if any), then never finishes: for abort tests. */
  | { kind: 'hang'; text?: string };

/** A reply decided when the request arrives, from what the model was sent (e.g. to follow a tool result). */
export type FakeOpenAiResponder = (body: ChatCompletionRequest) => FakeOpenAiReply;

const DEFAULT_USAGE: FakeOpenAiUsage = { promptTokens: 10, completionTokens: 5 };

/** An OpenAI-compatible `/v1/chat/completions` server with programmable replies. */
export class FakeOpenAiServer {
  private readonly queue: Array<FakeOpenAiReply | FakeOpenAiResponder> = [];
  private defaultReply: FakeOpenAiReply | undefined;
  private counter = 0;

  private constructor(private readonly listener: FakeHttpListener) {}

  static async start(): Promise<FakeOpenAiServer> {
    // The listener needs its handler before the fake that owns it exists.
    const holder: { fake?: FakeOpenAiServer } = {};
    const listener = await FakeHttpListener.start((request, res) => holder.fake?.handle(request, res));
    holder.fake = new FakeOpenAiServer(listener);
    return holder.fake;
  }

  /** Base URL to give an OpenAI client (ends with /v1). */
  get baseUrl(): string {
    return `${this.listener.origin}/v1`;
  }

  /** Every request received, in order. */
  get requests(): RecordedRequest[] {
    return this.listener.requests;
  }

  /** Bodies of the chat completion requests received, in order (a malformed one was answered 400). */
  get completionRequests(): ChatCompletionRequest[] {
    return this.listener.requests
      .filter((r) => r.path.startsWith('/v1/chat/completions'))
      .map((r) => r.body)
      .filter(isChatCompletionRequest);
  }

  enqueue(...replies: Array<FakeOpenAiReply | FakeOpenAiResponder>): this {
    this.queue.push(...replies);
    return this;
  }

  /** Reply used when the queue is empty; without one the fake answers 400. */
  setDefault(reply: FakeOpenAiReply | undefined): this {
    this.defaultReply = reply;
    return this;
  }

  reset(): void {
    this.queue.length = 0;
    this.listener.requests.length = 0;
  }

  close(): Promise<void> {
    return this.listener.close();
  }

  static rateLimited(retryAfterSeconds = 0): FakeOpenAiReply {
    return {
      kind: 'error',
      status: 429,
      headers: { 'retry-after': String(retryAfterSeconds) },
      body: { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } },
    };
  }

  static overloaded(status: 503 | 529 = 503): FakeOpenAiReply {
    return {
      kind: 'error',
      status,
      body: { error: { message: 'The server is overloaded', type: 'server_error' } },
    };
  }

  static contextLengthExceeded(): FakeOpenAiReply {
    return {
      kind: 'error',
      status: 400,
      body: {
        error: {
          message:
            "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
          type: 'invalid_request_error',
          param: 'messages',
          code: 'context_length_exceeded',
        },
      },
    };
  }

  private handle(request: RecordedRequest, res: ServerResponse): void {
    if (request.method !== 'POST' || !request.path.startsWith('/v1/chat/completions')) {
      sendJson(res, 404, { error: { message: `no route ${request.method} ${request.path}` } });
      return;
    }
    const body = request.body;
    if (!isChatCompletionRequest(body)) {
      sendJson(res, 400, {
        error: { message: 'fake: the body is not a chat completion request', type: 'invalid_request_error' },
      });
      return;
    }
    const next = this.queue.shift();
    const reply = typeof next === 'function' ? next(body) : (next ?? this.defaultReply);
    if (!reply) {
      sendJson(res, 400, { error: { message: 'fake: no reply queued', type: 'invalid_request_error' } });
      return;
    }
    if (reply.kind === 'error') {
      sendJson(res, reply.status, reply.body, reply.headers);
      return;
    }
    const id = `chatcmpl-${++this.counter}`;
    const model = body.model ?? 'fake';
    if (reply.kind === 'hang') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (reply.text) writeSse(res, chunk(id, model, { role: 'assistant', content: reply.text }, null));
      return;
    }
    const toolCalls = (reply.toolCalls ?? []).map((call, index) => ({
      id: call.id ?? `call_${this.counter}_${index}`,
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    }));
    const finishReason = reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop');
    const usage = toWireUsage(reply.usage ?? DEFAULT_USAGE);
    if (body.stream !== true) {
      sendJson(res, 200, {
        id,
        object: 'chat.completion',
        created: 0,
        model,
        choices: [
          {
            index: 0,
            finish_reason: finishReason,
            message: {
              role: 'assistant',
              content: reply.text ?? null,
              ...(toolCalls.length > 0
                ? {
                    tool_calls: toolCalls.map((c) => ({
                      id: c.id,
                      type: 'function',
                      function: { name: c.name, arguments: c.arguments },
                    })),
                  }
                : {}),
            },
          },
        ],
        usage,
      });
      return;
    }
    const size = reply.chunkSize ?? 4;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    writeSse(res, chunk(id, model, { role: 'assistant', content: '' }, null));
    for (const piece of splitText(reply.reasoning ?? '', size))
      writeSse(res, chunk(id, model, { reasoning_content: piece }, null));
    for (const piece of splitText(reply.text ?? '', size))
      writeSse(res, chunk(id, model, { content: piece }, null));
    toolCalls.forEach((call, index) => {
      const head = { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } };
      writeSse(res, chunk(id, model, { tool_calls: [head] }, null));
      for (const piece of splitText(call.arguments, size)) {
        writeSse(res, chunk(id, model, { tool_calls: [{ index, function: { arguments: piece } }] }, null));
      }
    });
    writeSse(res, chunk(id, model, {}, finishReason));
    if (body.stream_options?.include_usage === true) {
      writeSse(res, { id, object: 'chat.completion.chunk', created: 0, model, choices: [], usage });
    }
    writeSse(res, '[DONE]');
    res.end();
  }
}

function chunk(
  id: string,
  model: string,
  delta: Record<string, unknown>,
  finishReason: string | null,
): unknown {
  return {
    id,
    object: 'chat.completion.chunk',
    created: 0,
    model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

function toWireUsage(usage: FakeOpenAiUsage): Record<string, unknown> {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedTokens ?? 0 },
  };
}
