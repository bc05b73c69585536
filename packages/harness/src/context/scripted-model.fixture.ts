import type { ModelPort, ModelRequest, ModelStreamEvent } from '../model/model-port.js';

/** Deterministic ModelPort for unit tests: answers each request with the text `reply(request)` returns. */
export class ScriptedModelFixture implements ModelPort {
  readonly id = 'fixture';
  readonly requests: ModelRequest[] = [];

  constructor(
    private readonly reply: (request: ModelRequest) => string,
    readonly contextWindow = 200_000,
  ) {}

  /** Played lazily, as an async generator would: the reply is made on the first read, and a throw rejects it. */
  stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<ModelStreamEvent> {
    const events = this.play(request, signal);
    const next = () => new Promise<IteratorResult<ModelStreamEvent>>((resolve) => resolve(events.next()));
    return { [Symbol.asyncIterator]: () => ({ next }) };
  }

  private *play(request: ModelRequest, signal?: AbortSignal): Generator<ModelStreamEvent> {
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
