import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeAnthropicServer, type FakeAnthropicReply } from '@agentry/testing';
import type { ModelStreamEvent } from '../model-port.js';
import type { ConformanceObservedRequest, ConformanceReply } from '../testing/model-conformance.fixture.js';
import { runModelConformance } from '../testing/model-conformance.suite.js';
import { AnthropicMessagesModel } from './anthropic-messages.model.js';

function toFakeReply(reply: ConformanceReply): FakeAnthropicReply {
  switch (reply.kind) {
    case 'text':
      return { text: reply.text, ...(reply.usage ? { usage: reply.usage } : {}) };
    case 'tool_calls':
      return { text: reply.text, toolUses: reply.calls };
    case 'rate_limited':
      return FakeAnthropicServer.rateLimited(0);
    case 'overloaded':
      return FakeAnthropicServer.overloaded();
    case 'context_overflow':
      return FakeAnthropicServer.promptTooLong();
    case 'hang':
      return { kind: 'hang', text: reply.text };
  }
}

/** The parts of a Messages request body the conformance suite observes. */
interface MessagesBody {
  system?: unknown;
  tools?: Array<{ name: string }>;
  messages?: Array<{ role: string; content: unknown }>;
}

/** A content block of a message: text, a tool use or a tool result. */
interface ContentBlock {
  type: string;
  text?: string;
  id: string;
  name: string;
  input: Record<string, unknown>;
  tool_use_id: string;
  content?: unknown;
  is_error?: boolean;
}

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : ((content as ContentBlock[] | undefined) ?? []).map((b) => b.text ?? '').join('');

function observe(requestBody: unknown): ConformanceObservedRequest {
  const body = requestBody as MessagesBody | undefined;
  const messages = body?.messages ?? [];
  const blocks = (role: string) =>
    messages.filter((m) => m.role === role).flatMap((m) => m.content as ContentBlock[]);
  return {
    systemText: textOf(body?.system),
    toolNames: (body?.tools ?? []).map((t) => t.name),
    assistantToolCalls: blocks('assistant')
      .filter((b) => b.type === 'tool_use')
      .map((b) => ({ id: b.id, name: b.name, input: b.input })),
    toolResults: blocks('user')
      .filter((b) => b.type === 'tool_result')
      .map((b) => ({ toolCallId: b.tool_use_id, text: textOf(b.content), isError: b.is_error === true })),
  };
}

const makeModel = (
  fake: FakeAnthropicServer,
  extra: Partial<ConstructorParameters<typeof AnthropicMessagesModel>[0]> = {},
) =>
  new AnthropicMessagesModel({
    id: 'anthropic/claude-sonnet-4-5',
    model: 'claude-sonnet-4-5',
    baseUrl: fake.baseUrl,
    apiKey: 'test-key',
    contextWindow: 200_000,
    retry: { baseDelayMs: 5, maxAttempts: 3 },
    ...extra,
  });

runModelConformance('anthropic messages', async () => {
  const fake = await FakeAnthropicServer.start();
  return {
    model: makeModel(fake),
    enqueue: (...replies) => void fake.enqueue(...replies.map(toFakeReply)),
    requestCount: () => fake.messageRequests.length,
    lastRequest: () => observe(fake.messageRequests.at(-1)),
    reset: () => fake.reset(),
    close: () => fake.close(),
  };
});

describe('AnthropicMessagesModel against the fake server', () => {
  let fake: FakeAnthropicServer;
  beforeAll(async () => {
    fake = await FakeAnthropicServer.start();
  });
  afterAll(() => fake.close());

  const run = async (model: AnthropicMessagesModel) => {
    const events: ModelStreamEvent[] = [];
    const messages = [
      { role: 'system' as const, content: 'Be brief.' },
      { role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] },
    ];
    for await (const event of model.stream({ messages })) events.push(event);
    return events;
  };

  it('sends the key, max_tokens, a cached system prompt, and reports cache usage', async () => {
    fake.reset();
    fake.enqueue({
      text: 'ok',
      usage: { inputTokens: 20, outputTokens: 4, cacheReadInputTokens: 900, cacheCreationInputTokens: 30 },
    });
    const done = (await run(makeModel(fake, { maxTokens: 1024 }))).at(-1);
    expect(done).toMatchObject({
      type: 'done',
      usage: { inputTokens: 20, outputTokens: 4, cacheReadInputTokens: 900, cacheCreationInputTokens: 30 },
    });
    expect(fake.requests[0]?.headers.authorization).toBe('Bearer test-key');
    expect(fake.messageRequests[0]).toMatchObject({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      stream: true,
      system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }] },
      ],
    });
  });

  it('streams thinking and keeps its signature for the next turn', async () => {
    fake.reset();
    fake.enqueue({ thinking: 'weighing options', text: 'done' });
    const events = await run(makeModel(fake));
    const thinking = events.flatMap((e) => (e.type === 'thinking_delta' ? [e.text] : [])).join('');
    expect(thinking).toBe('weighing options');
    expect(events.at(-1)).toMatchObject({
      message: {
        content: [
          {
            type: 'thinking',
            text: 'weighing options',
            signature: expect.stringMatching(/^sig_msg_/) as unknown,
          },
          { type: 'text', text: 'done' },
        ],
      },
    });
  });

  it('retries an overloaded_error event that arrives before any content', async () => {
    fake.reset();
    fake.enqueue(
      { kind: 'stream_error', type: 'overloaded_error', message: 'Overloaded' },
      { text: 'second try' },
    );
    const events = await run(makeModel(fake));
    expect(events.at(-1)).toMatchObject({ message: { content: [{ type: 'text', text: 'second try' }] } });
    expect(fake.messageRequests).toHaveLength(2);
  });

  it('maps an invalid key to UNAUTHENTICATED without retrying', async () => {
    fake.reset();
    fake.enqueue({ kind: 'error', status: 401, type: 'authentication_error', message: 'invalid x-api-key' });
    await expect(run(makeModel(fake))).rejects.toMatchObject({ code: 'UNAUTHENTICATED', retryable: false });
    expect(fake.messageRequests).toHaveLength(1);
  });
});
