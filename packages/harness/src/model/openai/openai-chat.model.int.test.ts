import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeOpenAiServer, type FakeOpenAiReply } from '@agentry/testing';
import type { ConformanceObservedRequest, ConformanceReply } from '../testing/model-conformance.fixture.js';
import { runModelConformance } from '../testing/model-conformance.suite.js';
import { OpenAiChatModel } from './openai-chat.model.js';

function toFakeReply(reply: ConformanceReply): FakeOpenAiReply {
  switch (reply.kind) {
    case 'text':
      return {
        text: reply.text,
        ...(reply.usage
          ? { usage: { promptTokens: reply.usage.inputTokens, completionTokens: reply.usage.outputTokens } }
          : {}),
      };
    case 'tool_calls':
      return {
        text: reply.text,
        toolCalls: reply.calls.map((c) => ({ id: c.id, name: c.name, arguments: c.input })),
      };
    case 'rate_limited':
      return FakeOpenAiServer.rateLimited(0);
    case 'overloaded':
      return FakeOpenAiServer.overloaded(503);
    case 'context_overflow':
      return FakeOpenAiServer.contextLengthExceeded();
    case 'hang':
      return { kind: 'hang', text: reply.text };
  }
}

/** The parts of a chat completions request body the conformance suite observes. */
interface ChatBody {
  tools?: Array<{ function: { name: string } }>;
  messages?: ChatBodyMessage[];
}

interface ChatBodyMessage {
  role: string;
  content: string;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
  tool_call_id: string;
}

function observe(requestBody: unknown): ConformanceObservedRequest {
  const body = requestBody as ChatBody | undefined;
  const messages = body?.messages ?? [];
  return {
    systemText: messages
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n'),
    toolNames: (body?.tools ?? []).map((t) => t.function.name),
    assistantToolCalls: messages
      .filter((m) => m.role === 'assistant')
      .flatMap((m) => m.tool_calls ?? [])
      .map((c) => ({
        id: c.id,
        name: c.function.name,
        input: JSON.parse(c.function.arguments) as Record<string, unknown>,
      })),
    toolResults: messages
      .filter((m) => m.role === 'tool')
      .map((m) => ({
        toolCallId: m.tool_call_id,
        text: m.content,
        isError: String(m.content).startsWith('Error: '),
      })),
  };
}

const makeModel = (
  fake: FakeOpenAiServer,
  extra: Partial<ConstructorParameters<typeof OpenAiChatModel>[0]> = {},
) =>
  new OpenAiChatModel({
    id: 'vllm/fake-model',
    model: 'fake-model',
    baseUrl: fake.baseUrl,
    contextWindow: 8192,
    retry: { baseDelayMs: 5, maxAttempts: 3 },
    ...extra,
  });

runModelConformance('openai-compatible chat completions', async () => {
  const fake = await FakeOpenAiServer.start();
  return {
    model: makeModel(fake),
    enqueue: (...replies) => void fake.enqueue(...replies.map(toFakeReply)),
    requestCount: () => fake.completionRequests.length,
    lastRequest: () => observe(fake.completionRequests.at(-1)),
    reset: () => fake.reset(),
    close: () => fake.close(),
  };
});

describe('OpenAiChatModel against the fake server', () => {
  let fake: FakeOpenAiServer;
  beforeAll(async () => {
    fake = await FakeOpenAiServer.start();
  });
  afterAll(() => fake.close());

  const run = async (model: OpenAiChatModel) => {
    const events = [];
    for await (const event of model.stream({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    }))
      events.push(event);
    return events;
  };

  it('asks for usage in the last chunk and reports cached tokens apart', async () => {
    fake.reset();
    fake.enqueue({ text: 'ok', usage: { promptTokens: 100, completionTokens: 3, cachedTokens: 60 } });
    const done = (await run(makeModel(fake, { maxTokens: 256 }))).at(-1);
    expect(done).toMatchObject({
      type: 'done',
      usage: { inputTokens: 40, outputTokens: 3, cacheReadInputTokens: 60 },
    });
    const body: unknown = fake.completionRequests[0];
    expect(body).toMatchObject({
      model: 'fake-model',
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 256,
    });
  });

  it('streams reasoning_content as thinking', async () => {
    fake.reset();
    fake.enqueue({ reasoning: 'let me see', text: 'yes' });
    const events = await run(makeModel(fake));
    const thinking = events
      .filter((e) => e.type === 'thinking_delta')
      .map((e) => (e.type === 'thinking_delta' ? e.text : ''));
    expect(thinking.join('')).toBe('let me see');
    expect(events.at(-1)).toMatchObject({
      message: {
        content: [
          { type: 'thinking', text: 'let me see' },
          { type: 'text', text: 'yes' },
        ],
      },
    });
  });

  it('waits for Retry-After before retrying a 429', async () => {
    fake.reset();
    fake.enqueue(FakeOpenAiServer.rateLimited(0.3), { text: 'ok' });
    const started = Date.now();
    await run(makeModel(fake));
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect(fake.completionRequests).toHaveLength(2);
  });

  it('gives up after the configured attempts with MODEL_OVERLOADED', async () => {
    fake.reset();
    fake.enqueue(
      FakeOpenAiServer.overloaded(),
      FakeOpenAiServer.overloaded(),
      FakeOpenAiServer.overloaded(),
      { text: 'late' },
    );
    await expect(run(makeModel(fake))).rejects.toMatchObject({ code: 'MODEL_OVERLOADED', retryable: true });
    expect(fake.completionRequests).toHaveLength(3);
  });

  it('does not retry a 400 and maps a 401 to UNAUTHENTICATED', async () => {
    fake.reset();
    fake.enqueue({ kind: 'error', status: 400, body: { error: { message: 'bad tool schema' } } });
    await expect(run(makeModel(fake))).rejects.toMatchObject({
      code: 'MODEL_REQUEST_FAILED',
      retryable: false,
    });
    fake.enqueue({ kind: 'error', status: 401, body: { error: { message: 'Incorrect API key provided' } } });
    await expect(run(makeModel(fake))).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(fake.completionRequests).toHaveLength(2);
  });

  it('fails fast with a retryable MODEL_REQUEST_FAILED when nothing listens', async () => {
    const model = makeModel(fake, { baseUrl: 'http://127.0.0.1:9/v1', retry: { maxAttempts: 1 } });
    await expect(run(model)).rejects.toMatchObject({ code: 'MODEL_REQUEST_FAILED', retryable: true });
  });
});
