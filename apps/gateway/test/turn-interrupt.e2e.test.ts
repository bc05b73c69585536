import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  pollUntil,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';

/** What CMA promises of an interrupt: the turn stops at once and ends as any other. */
const INTERRUPT_BOUND_MS = 1_000;

type StreamedEvent = { id?: string; type: string } & Record<string, unknown>;

describe('user.interrupt stops the running turn', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let client: Anthropic;
  let agentId: string;
  let environmentId: string;
  /** A page that never answers: a `web_fetch` of it runs until something stops it. */
  let hanging: Server;
  let hangingUrl: string;

  beforeAll(async () => {
    hanging = createServer(() => undefined);
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    hangingUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/slow`;
    db = await createTestDatabase();
    platform = await launchPlatform({
      databaseUrl: db.url,
      env: { AGENTRY_EGRESS_ALLOW_PRIVATE_NETWORKS: 'true' },
    });
    const api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    const script = {
      turns: [
        { match: '^think slowly', reply: [{ delayMs: 30_000, text: 'too late' }] },
        {
          match: '^fetch',
          reply: [
            { text: 'Fetching.', toolCall: { name: 'web_fetch', input: { url: hangingUrl } } },
            'fetched',
          ],
        },
        { match: '^quick', reply: ['quick answer'] },
      ],
    };
    const agent = await api.post<{ id: string }>('/v1/agents', {
      name: 'slow',
      model: { id: 'scripted', script },
      tools: [{ type: 'agent_toolset_20260401' }],
    });
    expect(agent.status).toBe(200);
    agentId = agent.body.id;
    environmentId = (
      await api.post<{ id: string }>('/v1/environments', { name: 'cloud', config: { type: 'cloud' } })
    ).body.id;
    const token = api.authHeaders.authorization!.replace(/^Bearer /, '');
    client = new Anthropic({ baseURL: platform.gatewayUrl, authToken: token, apiKey: null, maxRetries: 0 });
  }, 180_000);

  afterAll(async () => {
    hanging?.closeAllConnections();
    hanging?.close();
    await platform?.stop();
    await db?.drop();
  });

  /** Opens the SDK stream and collects what it delivers until closed. */
  const watch = async (sessionId: string) => {
    const stream = await client.beta.sessions.events.stream(sessionId);
    const seen: StreamedEvent[] = [];
    const pumping = (async () => {
      try {
        for await (const event of stream) seen.push(event as unknown as StreamedEvent);
      } catch {
        // aborted by the test
      }
    })();
    const until = (test: (events: StreamedEvent[]) => boolean, what: string, timeoutMs = 30_000) =>
      pollUntil(what, () => test(seen), timeoutMs, { everyMs: 20 }).catch(() => {
        throw new Error(`stream never showed ${what}; saw ${seen.map((e) => e.type).join(', ')}`);
      });
    const close = async () => {
      stream.controller.abort();
      await pumping;
    };
    return { seen, until, close };
  };

  const say = (sessionId: string, text: string) =>
    client.beta.sessions.events.send(sessionId, {
      events: [{ type: 'user.message', content: [{ type: 'text', text }] }],
    });

  /** Sends the interrupt and waits, at most the bound, until the session reads `idle`. */
  const interruptUntilIdle = async (sessionId: string, event: Record<string, unknown> = {}) => {
    await client.beta.sessions.events.send(sessionId, {
      events: [{ type: 'user.interrupt', ...event } as never],
    });
    await pollUntil(
      'the session to go idle after the interrupt',
      async () => (await client.beta.sessions.retrieve(sessionId)).status === 'idle',
      INTERRUPT_BOUND_MS,
      { everyMs: 20 },
    );
  };

  const history = async (sessionId: string) => {
    const all: StreamedEvent[] = [];
    for await (const event of client.beta.sessions.events.list(sessionId, { limit: 1000 }))
      all.push(event as unknown as StreamedEvent);
    return all;
  };

  it('during a 30 s model call: idle within 1 s with end_turn, everything written kept, the stream shows the interrupt then idle', async () => {
    const session = await client.beta.sessions.create({ agent: agentId, environment_id: environmentId });
    const stream = await watch(session.id);
    await say(session.id, 'think slowly');
    await stream.until(
      (seen) => seen.some((e) => e.type === 'span.model_request_start'),
      'the model call starting',
    );

    await interruptUntilIdle(session.id);

    await stream.until((seen) => seen.some((e) => e.type === 'session.status_idle'), 'the turn ending');
    await stream.close();
    const streamedTypes = stream.seen.map((e) => e.type);
    expect(streamedTypes.indexOf('user.interrupt')).toBeGreaterThan(
      streamedTypes.indexOf('span.model_request_start'),
    );
    expect(streamedTypes.indexOf('session.status_idle')).toBeGreaterThan(
      streamedTypes.indexOf('user.interrupt'),
    );
    expect(stream.seen.find((e) => e.type === 'session.status_idle')).toMatchObject({
      stop_reason: { type: 'end_turn' },
    });

    const log = await history(session.id);
    expect(log.map((e) => e.type).filter((type) => type !== 'session.usage')).toEqual([
      'user.message',
      'session.status_running',
      'span.model_request_start',
      'user.interrupt',
      'span.model_request_end',
      'session.status_idle',
    ]);
    expect(log.every((e) => e.processed_at !== null)).toBe(true);
    expect(log.some((e) => e.type === 'agent.message')).toBe(false);
    expect((await client.beta.sessions.retrieve(session.id)).status).toBe('idle');
  }, 120_000);

  it('during a tool call: idle within 1 s, the open call closed with a result saying it was cancelled', async () => {
    const session = await client.beta.sessions.create({ agent: agentId, environment_id: environmentId });
    const stream = await watch(session.id);
    await say(session.id, 'fetch the slow page');
    await stream.until((seen) => seen.some((e) => e.type === 'agent.tool_use'), 'the tool call');

    await interruptUntilIdle(session.id);
    await stream.close();

    const log = await history(session.id);
    const uses = log.filter((e) => e.type === 'agent.tool_use');
    const results = log.filter((e) => e.type === 'agent.tool_result');
    expect(uses).toHaveLength(1);
    expect(results.map((r) => r.tool_use_id)).toEqual([uses[0]!.id]);
    expect(results[0]).toMatchObject({ is_error: true });
    expect(JSON.stringify(results[0]!.content)).toMatch(/cancelled/);
    expect(log.at(-1)).toMatchObject({ type: 'session.status_idle', stop_reason: { type: 'end_turn' } });
    // The model is not called again after the interrupt.
    expect(log.filter((e) => e.type === 'span.model_request_start')).toHaveLength(1);
  }, 120_000);

  it('jumps the queue: acted on at once with a message queued behind the running turn, which then gets its own turn', async () => {
    const session = await client.beta.sessions.create({ agent: agentId, environment_id: environmentId });
    const stream = await watch(session.id);
    await say(session.id, 'think slowly');
    await stream.until(
      (seen) => seen.some((e) => e.type === 'span.model_request_start'),
      'the model call starting',
    );
    const queued = await say(session.id, 'quick, after that');
    expect(queued.data?.[0]).toMatchObject({ processed_at: null });

    // No session_thread_id: the session has no child threads, and naming one it does not have is a 404.
    await interruptUntilIdle(session.id);

    await stream.until(
      (seen) => seen.filter((e) => e.type === 'session.status_idle').length === 2,
      'the queued message answered',
    );
    await stream.close();
    const log = await history(session.id);
    const types = log.map((e) => e.type);
    // The queued message was not dropped: it got its own turn after the interrupted one.
    expect(types.indexOf('session.status_idle')).toBeLessThan(types.lastIndexOf('session.status_running'));
    const answers = log.filter((e) => e.type === 'agent.message').map((e) => JSON.stringify(e.content));
    expect(answers).toEqual([expect.stringContaining('quick answer')]);
  }, 120_000);
});
