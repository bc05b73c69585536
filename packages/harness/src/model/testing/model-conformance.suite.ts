import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '@agentry/contracts';
import type { ChatMessage, ModelRequest, ModelStreamEvent } from '../model-port.js';
import type { ModelConformanceFixture } from './model-conformance.fixture.js';

type Done = Extract<ModelStreamEvent, { type: 'done' }>;

async function collect(
  stream: AsyncIterable<ModelStreamEvent>,
): Promise<{ events: ModelStreamEvent[]; done: Done }> {
  const events: ModelStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  const done = events.at(-1);
  if (done?.type !== 'done') throw new Error('stream ended without a done event');
  return { events, done };
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw new Error(`expected an AppError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected a rejection');
}

const WEATHER_TOOL = {
  name: 'get_weather',
  description: 'Current weather of a city',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

const ask = (text: string, extra: Partial<ModelRequest> = {}): ModelRequest => ({
  messages: [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: [{ type: 'text', text }] },
  ],
  ...extra,
});

/** The behaviour every ModelPort adapter must show, run against a programmable backend. */
export function runModelConformance(name: string, makeFixture: () => Promise<ModelConformanceFixture>): void {
  describe(`model conformance: ${name}`, () => {
    let fixture: ModelConformanceFixture;
    beforeAll(async () => {
      fixture = await makeFixture();
    });
    afterAll(async () => {
      await fixture?.close();
    });
    beforeEach(() => fixture.reset());

    it('answers with text and reports usage', async () => {
      fixture.enqueue({
        kind: 'text',
        text: 'Hello there, traveller.',
        usage: { inputTokens: 12, outputTokens: 7 },
      });
      const { done } = await collect(fixture.model.stream(ask('hi')));
      expect(done.message.content.filter((b) => b.type === 'text')).toEqual([
        { type: 'text', text: 'Hello there, traveller.' },
      ]);
      expect(done.message.toolCalls ?? []).toEqual([]);
      expect(done.stopReason).toBe('end_turn');
      expect(done.usage.inputTokens).toBe(12);
      expect(done.usage.outputTokens).toBe(7);
      expect(fixture.lastRequest().systemText).toContain('You are terse.');
    });

    it('streams text deltas that concatenate to the final text', async () => {
      const text = 'A longer answer that arrives in several pieces.';
      fixture.enqueue({ kind: 'text', text });
      const { events, done } = await collect(fixture.model.stream(ask('stream please')));
      const deltas = events.filter(
        (e): e is Extract<ModelStreamEvent, { type: 'text_delta' }> => e.type === 'text_delta',
      );
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.map((d) => d.text).join('')).toBe(text);
      expect(done.message.content).toContainEqual({ type: 'text', text });
    });

    it('returns a tool call with parsed input and sends the tool schemas', async () => {
      fixture.enqueue({
        kind: 'tool_calls',
        calls: [{ id: 'call_a', name: 'get_weather', input: { city: 'Paris' } }],
      });
      const { events, done } = await collect(
        fixture.model.stream(ask('weather in Paris?', { tools: [WEATHER_TOOL] })),
      );
      expect(done.stopReason).toBe('tool_use');
      expect(done.message.toolCalls).toEqual([
        { id: 'call_a', name: 'get_weather', input: { city: 'Paris' } },
      ]);
      expect(events).toContainEqual({ type: 'tool_call_start', id: 'call_a', name: 'get_weather' });
      const argDeltas = events.filter((e) => e.type === 'tool_call_delta' && e.id === 'call_a');
      expect(
        JSON.parse(argDeltas.map((e) => (e.type === 'tool_call_delta' ? e.argumentsDelta : '')).join('')),
      ).toEqual({ city: 'Paris' });
      expect(fixture.lastRequest().toolNames).toEqual(['get_weather']);
    });

    it('returns two parallel tool calls in order', async () => {
      fixture.enqueue({
        kind: 'tool_calls',
        calls: [
          { id: 'call_1', name: 'get_weather', input: { city: 'Oslo' } },
          { id: 'call_2', name: 'get_weather', input: { city: 'Lima' } },
        ],
      });
      const { done } = await collect(fixture.model.stream(ask('Oslo and Lima?', { tools: [WEATHER_TOOL] })));
      expect(done.message.toolCalls).toEqual([
        { id: 'call_1', name: 'get_weather', input: { city: 'Oslo' } },
        { id: 'call_2', name: 'get_weather', input: { city: 'Lima' } },
      ]);
    });

    it('sends tool calls and their results back in the history', async () => {
      fixture.enqueue({ kind: 'text', text: 'Oslo is cold, Lima is mild.' });
      const history: ChatMessage[] = [
        ...ask('Oslo and Lima?').messages,
        {
          role: 'assistant',
          content: [{ type: 'text', text: 'Checking.' }],
          toolCalls: [
            { id: 'call_1', name: 'get_weather', input: { city: 'Oslo' } },
            { id: 'call_2', name: 'get_weather', input: { city: 'Lima' } },
          ],
        },
        {
          role: 'tool',
          toolCallId: 'call_1',
          toolName: 'get_weather',
          content: [{ type: 'text', text: '-3C' }],
        },
        {
          role: 'tool',
          toolCallId: 'call_2',
          toolName: 'get_weather',
          content: [{ type: 'text', text: 'no data' }],
          isError: true,
        },
      ];
      const { done } = await collect(fixture.model.stream({ messages: history, tools: [WEATHER_TOOL] }));
      expect(done.message.content).toContainEqual({ type: 'text', text: 'Oslo is cold, Lima is mild.' });
      const sent = fixture.lastRequest();
      expect(sent.assistantToolCalls).toEqual([
        { id: 'call_1', name: 'get_weather', input: { city: 'Oslo' } },
        { id: 'call_2', name: 'get_weather', input: { city: 'Lima' } },
      ]);
      expect(sent.toolResults.map((r) => r.toolCallId)).toEqual(['call_1', 'call_2']);
      expect(sent.toolResults[0]?.text).toContain('-3C');
      expect(sent.toolResults[1]?.text).toContain('no data');
      expect(sent.toolResults.map((r) => r.isError)).toEqual([false, true]);
    });

    it('rejects promptly with ABORTED when the signal aborts mid-stream', async () => {
      fixture.enqueue({ kind: 'hang', text: 'Thinking about it' });
      const controller = new AbortController();
      const started = Date.now();
      const consume = (async () => {
        for await (const event of fixture.model.stream(ask('never finishes'), controller.signal)) {
          // Abort while the adapter waits for a chunk that never comes: after this body returns, the
          // adapter is back reading the stream by the time the next macrotask runs.
          if (event.type === 'text_delta') setImmediate(() => controller.abort());
        }
      })();
      const error = await rejection(consume);
      expect(error.code).toBe('ABORTED');
      expect(Date.now() - started).toBeLessThan(2_000);
    });

    it('rejects with ABORTED when the signal is already aborted', async () => {
      fixture.enqueue({ kind: 'text', text: 'unused' });
      const error = await rejection(collect(fixture.model.stream(ask('hi'), AbortSignal.abort())));
      expect(error.code).toBe('ABORTED');
    });

    it('retries a rate limit and then succeeds', async () => {
      fixture.enqueue({ kind: 'rate_limited' }, { kind: 'text', text: 'after the wait' });
      const { done } = await collect(fixture.model.stream(ask('hi')));
      expect(done.message.content).toContainEqual({ type: 'text', text: 'after the wait' });
      expect(fixture.requestCount()).toBe(2);
    });

    it('retries an overload and then succeeds', async () => {
      fixture.enqueue({ kind: 'overloaded' }, { kind: 'text', text: 'back again' });
      const { done } = await collect(fixture.model.stream(ask('hi')));
      expect(done.message.content).toContainEqual({ type: 'text', text: 'back again' });
      expect(fixture.requestCount()).toBe(2);
    });

    it('fails with a typed, non-retried CONTEXT_OVERFLOW error', async () => {
      fixture.enqueue({ kind: 'context_overflow' }, { kind: 'text', text: 'must not be reached' });
      const error = await rejection(collect(fixture.model.stream(ask('a very long prompt'))));
      expect(error.code).toBe('CONTEXT_OVERFLOW');
      expect(error.retryable).toBe(false);
      expect(fixture.requestCount()).toBe(1);
    });
  });
}
