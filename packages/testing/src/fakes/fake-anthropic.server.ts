import type { ServerResponse } from 'node:http';
import {
  FakeHttpListener,
  sendJson,
  splitText,
  writeSse,
  type RecordedRequest,
} from './fake-http.listener.js';
import { isMessagesRequest, type MessagesRequest } from './fake-anthropic.request.js';

interface FakeAnthropicUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens?: number;
  cacheCreationInputTokens?: number;
}

/** What the fake answers to the next `/v1/messages` request. */
export type FakeAnthropicReply =
  | {
      kind?: 'message';
      thinking?: string;
      text?: string;
      toolUses?: Array<{ id?: string; name: string; input: Record<string, unknown> }>;
      stopReason?: string;
      usage?: FakeAnthropicUsage;
      /** Characters per streamed delta (default 4). */
      chunkSize?: number;
    }
  | { kind: 'error'; status: number; type: string; message: string; headers?: Record<string, string> }
  /** Starts the stream, then sends an `error` event (as the API does when it overloads mid-response). */
  | { kind: 'stream_error'; type: string; message: string }
  /** Sends message_start and `text` (if any), then never finishes: for abort tests. */
  | { kind: 'hang'; text?: string };

const DEFAULT_USAGE: FakeAnthropicUsage = { inputTokens: 10, outputTokens: 5 };

/** An Anthropic Messages `/v1/messages` server with programmable replies. */
export class FakeAnthropicServer {
  private readonly queue: FakeAnthropicReply[] = [];
  private defaultReply: FakeAnthropicReply | undefined;
  private counter = 0;

  private constructor(private readonly listener: FakeHttpListener) {}

  static async start(): Promise<FakeAnthropicServer> {
    // The listener needs its handler before the fake that owns it exists.
    const holder: { fake?: FakeAnthropicServer } = {};
    const listener = await FakeHttpListener.start((request, res) => holder.fake?.handle(request, res));
    holder.fake = new FakeAnthropicServer(listener);
    return holder.fake;
  }

  /** Base URL to give an Anthropic client (the SDK appends /v1/messages). */
  get baseUrl(): string {
    return this.listener.origin;
  }

  get requests(): RecordedRequest[] {
    return this.listener.requests;
  }

  /** Bodies of the `/v1/messages` requests received, in order (a malformed one was answered 400). */
  get messageRequests(): MessagesRequest[] {
    return this.listener.requests
      .filter((r) => r.path.startsWith('/v1/messages'))
      .map((r) => r.body)
      .filter(isMessagesRequest);
  }

  enqueue(...replies: FakeAnthropicReply[]): this {
    this.queue.push(...replies);
    return this;
  }

  /** Reply used when the queue is empty; without one the fake answers 400. */
  setDefault(reply: FakeAnthropicReply | undefined): this {
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

  static rateLimited(retryAfterSeconds = 0): FakeAnthropicReply {
    return {
      kind: 'error',
      status: 429,
      type: 'rate_limit_error',
      message: 'Number of request tokens has exceeded your per-minute rate limit',
      headers: { 'retry-after': String(retryAfterSeconds) },
    };
  }

  static overloaded(): FakeAnthropicReply {
    return { kind: 'error', status: 529, type: 'overloaded_error', message: 'Overloaded' };
  }

  static promptTooLong(): FakeAnthropicReply {
    return {
      kind: 'error',
      status: 400,
      type: 'invalid_request_error',
      message: 'prompt is too long: 210000 tokens > 200000 maximum',
    };
  }

  private handle(request: RecordedRequest, res: ServerResponse): void {
    if (request.method !== 'POST' || !request.path.startsWith('/v1/messages')) {
      sendJson(res, 404, {
        type: 'error',
        error: { type: 'not_found_error', message: `no route ${request.path}` },
      });
      return;
    }
    const body = request.body;
    if (!isMessagesRequest(body)) {
      sendJson(res, 400, {
        type: 'error',
        error: { type: 'invalid_request_error', message: 'fake: the body is not a Messages request' },
      });
      return;
    }
    const reply = this.queue.shift() ?? this.defaultReply;
    if (!reply) {
      sendJson(res, 400, {
        type: 'error',
        error: { type: 'invalid_request_error', message: 'fake: no reply queued' },
      });
      return;
    }
    if (reply.kind === 'error') {
      sendJson(
        res,
        reply.status,
        { type: 'error', error: { type: reply.type, message: reply.message } },
        reply.headers,
      );
      return;
    }
    const id = `msg_${++this.counter}`;
    const model = body.model ?? 'fake';
    const stream = body.stream === true;
    if (!stream && reply.kind !== undefined && reply.kind !== 'message') {
      sendJson(res, 500, {
        type: 'error',
        error: { type: 'api_error', message: `fake: ${reply.kind} needs stream` },
      });
      return;
    }
    const usage =
      reply.kind === undefined || reply.kind === 'message' ? (reply.usage ?? DEFAULT_USAGE) : DEFAULT_USAGE;
    const start = {
      type: 'message_start',
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: usage.inputTokens,
          output_tokens: 1,
          cache_read_input_tokens: usage.cacheReadInputTokens ?? 0,
          cache_creation_input_tokens: usage.cacheCreationInputTokens ?? 0,
        },
      },
    };
    if (reply.kind === 'hang' || reply.kind === 'stream_error') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      writeSse(res, start, 'message_start');
      if (reply.kind === 'stream_error') {
        writeSse(res, { type: 'error', error: { type: reply.type, message: reply.message } }, 'error');
        res.end();
      } else if (reply.text) {
        writeSse(
          res,
          { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
          'content_block_start',
        );
        writeSse(
          res,
          { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: reply.text } },
          'content_block_delta',
        );
      }
      return;
    }
    const toolUses = (reply.toolUses ?? []).map((t, i) => ({
      id: t.id ?? `toolu_${this.counter}_${i}`,
      name: t.name,
      input: t.input,
    }));
    const stopReason = reply.stopReason ?? (toolUses.length > 0 ? 'tool_use' : 'end_turn');
    const blocks: ReplyBlock[] = [];
    if (reply.thinking) blocks.push({ type: 'thinking', thinking: reply.thinking, signature: `sig_${id}` });
    if (reply.text) blocks.push({ type: 'text', text: reply.text });
    for (const t of toolUses) blocks.push({ type: 'tool_use', id: t.id, name: t.name, input: t.input });
    if (!stream) {
      sendJson(res, 200, {
        ...start.message,
        content: blocks,
        stop_reason: stopReason,
        usage: { ...start.message.usage, output_tokens: usage.outputTokens },
      });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    writeSse(res, start, 'message_start');
    const size = reply.chunkSize ?? 4;
    blocks.forEach((block, index) => writeBlock(res, index, block, size));
    writeSse(
      res,
      {
        type: 'message_delta',
        delta: { stop_reason: stopReason, stop_sequence: null },
        usage: { output_tokens: usage.outputTokens },
      },
      'message_delta',
    );
    writeSse(res, { type: 'message_stop' }, 'message_stop');
    res.end();
  }
}

/** A content block of the fake's reply. */
type ReplyBlock =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

/** Streams one block: its start with the block emptied, its deltas, its stop. */
function writeBlock(res: ServerResponse, index: number, block: ReplyBlock, size: number): void {
  const emptyBlock =
    block.type === 'text'
      ? { type: 'text', text: '' }
      : block.type === 'thinking'
        ? { type: 'thinking', thinking: '', signature: '' }
        : { type: 'tool_use', id: block.id, name: block.name, input: {} };
  writeSse(res, { type: 'content_block_start', index, content_block: emptyBlock }, 'content_block_start');
  const delta = (d: Record<string, unknown>): void =>
    writeSse(res, { type: 'content_block_delta', index, delta: d }, 'content_block_delta');
  if (block.type === 'text')
    for (const piece of splitText(block.text, size)) delta({ type: 'text_delta', text: piece });
  if (block.type === 'thinking') {
    for (const piece of splitText(block.thinking, size)) delta({ type: 'thinking_delta', thinking: piece });
    delta({ type: 'signature_delta', signature: block.signature });
  }
  if (block.type === 'tool_use') {
    for (const piece of splitText(JSON.stringify(block.input), size))
      delta({ type: 'input_json_delta', partial_json: piece });
  }
  writeSse(res, { type: 'content_block_stop', index }, 'content_block_stop');
}
