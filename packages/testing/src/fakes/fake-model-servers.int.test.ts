import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeAnthropicServer } from './fake-anthropic.server.js';
import { FakeOpenAiServer } from './fake-openai.server.js';

const post = (url: string, body: unknown) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
    body: JSON.stringify(body),
  });

/** What these tests read of an OpenAI chat completion. */
interface ChatCompletion {
  choices: Array<{
    finish_reason: string;
    message: { tool_calls: Array<{ function: { name: string; arguments: string } }> };
  }>;
  usage: unknown;
}

/** What these tests read of a streamed chat completion chunk. */
interface ChatChunk {
  choices: Array<{ delta?: { content?: string } }>;
}

/** Parses an SSE body into its data payloads (and event names when present). */
async function sse(response: Response): Promise<Array<{ event?: string; data: string }>> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((frame) => frame.trim() !== '')
    .map((frame) => {
      const event = /^event: (.*)$/m.exec(frame)?.[1];
      const data = /^data: (.*)$/m.exec(frame)?.[1] ?? '';
      return event ? { event, data } : { data };
    });
}

describe('FakeOpenAiServer', () => {
  let fake: FakeOpenAiServer;
  beforeAll(async () => {
    fake = await FakeOpenAiServer.start();
  });
  afterAll(() => fake.close());

  it('answers non-streaming requests with parallel tool calls and records what it received', async () => {
    fake.enqueue({
      text: 'two calls',
      toolCalls: [
        { name: 'a', arguments: { x: 1 } },
        { id: 'c2', name: 'b', arguments: '{}' },
      ],
    });
    const body = {
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', function: { name: 'a' } }],
    };
    const response = await post(`${fake.baseUrl}/chat/completions`, body);
    const json = (await response.json()) as ChatCompletion;
    expect(json.choices[0]!.finish_reason).toBe('tool_calls');
    expect(json.choices[0]!.message.tool_calls.map((c) => [c.function.name, c.function.arguments])).toEqual([
      ['a', '{"x":1}'],
      ['b', '{}'],
    ]);
    expect(json.usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 5 });
    expect(fake.completionRequests).toEqual([body]);
    expect(fake.requests[0]?.headers.authorization).toBe('Bearer k');
  });

  it('streams chunks, puts usage in a final chunk only when asked, and ends with [DONE]', async () => {
    fake.enqueue({ text: 'abcdefgh', chunkSize: 3 }, { text: 'x' });
    const withUsage = await sse(
      await post(`${fake.baseUrl}/chat/completions`, {
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
    expect(withUsage.at(-1)?.data).toBe('[DONE]');
    const chunks = withUsage.slice(0, -1).map((f) => JSON.parse(f.data) as ChatChunk);
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe('abcdefgh');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 10 } });
    const without = await sse(await post(`${fake.baseUrl}/chat/completions`, { stream: true }));
    expect(without.some((f) => f.data.includes('"usage"'))).toBe(false);
  });

  it('replays programmed errors with their headers, and 400s when nothing is queued', async () => {
    fake.enqueue(FakeOpenAiServer.rateLimited(7));
    const limited = await post(`${fake.baseUrl}/chat/completions`, {});
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect((await post(`${fake.baseUrl}/chat/completions`, {})).status).toBe(400);
  });

  it('400s a body that is not a chat completion request, keeps the queued reply and leaves it unrecorded', async () => {
    fake.reset();
    fake.enqueue((body) => ({ text: `${body.messages?.length ?? 0} messages` }));
    const malformed = await post(`${fake.baseUrl}/chat/completions`, { messages: 'hi' });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    const body = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };
    const json = (await (await post(`${fake.baseUrl}/chat/completions`, body)).json()) as {
      choices: Array<{ message: { content: string } }>;
    };
    expect(json.choices[0]?.message.content).toBe('1 messages');
    expect(fake.completionRequests).toEqual([body]);
  });
});

describe('FakeAnthropicServer', () => {
  let fake: FakeAnthropicServer;
  beforeAll(async () => {
    fake = await FakeAnthropicServer.start();
  });
  afterAll(() => fake.close());

  it('streams the Messages event sequence with thinking, text and tool input deltas', async () => {
    fake.enqueue({
      thinking: 'hmm',
      text: 'ok',
      toolUses: [{ name: 't', input: { q: 'x' } }],
      usage: { inputTokens: 3, outputTokens: 9 },
    });
    const frames = await sse(await post(`${fake.baseUrl}/v1/messages`, { model: 'claude-x', stream: true }));
    const names = [...new Set(frames.map((f) => f.event))];
    expect(names).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const deltas = frames
      .filter((f) => f.event === 'content_block_delta')
      .map((f) => (JSON.parse(f.data) as { delta: { type: string } }).delta.type);
    expect(new Set(deltas)).toEqual(
      new Set(['thinking_delta', 'signature_delta', 'text_delta', 'input_json_delta']),
    );
    const messageDelta: unknown = JSON.parse(frames.find((f) => f.event === 'message_delta')?.data ?? '{}');
    expect(messageDelta).toMatchObject({ delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 9 } });
  });

  it('answers non-streaming requests and Anthropic-shaped errors', async () => {
    fake.enqueue({ text: 'plain' }, FakeAnthropicServer.overloaded());
    const json: unknown = await (await post(`${fake.baseUrl}/v1/messages`, { model: 'm' })).json();
    expect(json).toMatchObject({
      type: 'message',
      content: [{ type: 'text', text: 'plain' }],
      stop_reason: 'end_turn',
    });
    const overloaded = await post(`${fake.baseUrl}/v1/messages`, { model: 'm' });
    expect(overloaded.status).toBe(529);
    expect(await overloaded.json()).toEqual({
      type: 'error',
      error: { type: 'overloaded_error', message: 'Overloaded' },
    });
  });

  it('400s a body that is not a Messages request, keeps the queued reply and leaves it unrecorded', async () => {
    fake.reset();
    fake.enqueue({ text: 'kept' });
    const malformed = await post(`${fake.baseUrl}/v1/messages`, {
      model: 'm',
      tools: [{ description: 'x' }],
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    const body = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };
    expect(await (await post(`${fake.baseUrl}/v1/messages`, body)).json()).toMatchObject({
      content: [{ type: 'text', text: 'kept' }],
    });
    expect(fake.messageRequests).toEqual([body]);
  });
});
