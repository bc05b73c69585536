import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  isAlive,
  launchPlatform,
  pidsOf,
  pollUntil,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';

/** What CMA promises of an interrupt: the turn and what it runs stop at once. */
const INTERRUPT_BOUND_MS = 1_000;
/** The interrupt's latency is measured: look often. */
const FAST = { everyMs: 10 };
/** A command line no other process on the host has, so its pid can be found in the host's process table. */
const SLEEP = `sleep 60.${String(process.pid).padStart(7, '0')}`;

type StreamedEvent = { id?: string; type: string } & Record<string, unknown>;

describe('user.interrupt during a bash call', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let client: Anthropic;
  let agentId: string;
  let environmentId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({ databaseUrl: db.url });
    const api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    const script = {
      turns: [
        {
          match: '^sleep',
          reply: [{ text: 'Sleeping.', toolCall: { name: 'bash', input: { command: SLEEP } } }, 'slept'],
        },
      ],
    };
    const agent = await api.post<{ id: string }>('/v1/agents', {
      name: 'sleeper',
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
    for (const pid of pidsOf(SLEEP)) process.kill(pid, 'SIGKILL');
    await platform?.stop();
    await db?.drop();
  });

  it('ends the sleep process within 1 s; the session goes idle and the stream shows the interrupt then idle', async () => {
    const session = await client.beta.sessions.create({ agent: agentId, environment_id: environmentId });
    const stream = await client.beta.sessions.events.stream(session.id);
    const seen: StreamedEvent[] = [];
    const pumping = (async () => {
      try {
        for await (const event of stream) seen.push(event as unknown as StreamedEvent);
      } catch {
        // aborted by the test
      }
    })();
    await client.beta.sessions.events.send(session.id, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'sleep a minute' }] }],
    });
    const pid = await pollUntil(`a host process \`${SLEEP}\``, () => pidsOf(SLEEP)[0], 60_000, FAST);

    await client.beta.sessions.events.send(session.id, { events: [{ type: 'user.interrupt' } as never] });
    await pollUntil(`process ${pid} ending`, () => !isAlive(pid), INTERRUPT_BOUND_MS, FAST);

    await pollUntil(
      'the session idle',
      async () => (await client.beta.sessions.retrieve(session.id)).status === 'idle',
      30_000,
      FAST,
    );
    await pollUntil(
      'idle on the stream',
      () => seen.some((e) => e.type === 'session.status_idle'),
      30_000,
      FAST,
    );
    stream.controller.abort();
    await pumping;
    const types = seen.map((e) => e.type);
    expect(types.indexOf('user.interrupt')).toBeGreaterThan(types.indexOf('agent.tool_use'));
    expect(types.indexOf('session.status_idle')).toBeGreaterThan(types.indexOf('user.interrupt'));
    expect(seen.find((e) => e.type === 'session.status_idle')).toMatchObject({
      stop_reason: { type: 'end_turn' },
    });
    expect(seen.filter((e) => e.type === 'agent.tool_result')).toEqual([
      expect.objectContaining({ is_error: true }),
    ]);
    expect(pidsOf(SLEEP)).toEqual([]);
  }, 180_000);
});
