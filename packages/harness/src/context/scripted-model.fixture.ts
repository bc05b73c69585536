import type { ModelPort, ModelRequest, ModelStreamEvent } from '../model/model-port.js';

/** Deterministic ModelPort for unit tests: answers each request with the text `reply(request)` returns. */
export class ScriptedModelFixture implements ModelPort {
  readonly id = 'fixture';
  readonly requests: ModelRequest[] = [];

  constructor(
    private readonly reply: (request: ModelRequest) => string,
    readonly contextWindow = 200_000,
  ) {}

  async *stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<ModelStreamEvent> {
    signal?.throwIfAborted();
    this.requests.push(request);
    const text = this.reply(request);
    yield { type: 'text_delta', text };
    yield {
      type: 'done',
      message: { role: 'assistant', content: [{ type: 'text', text }] },
      stopReason: 'end_turn',
      usage: { inputTokens: 1, outputTokens: 1 },
    };
  }
}
