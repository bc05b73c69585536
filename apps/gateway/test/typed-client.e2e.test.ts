import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAgentryClient,
  streamSessionEvents,
  type AgentryClient,
  type components,
  type StreamedEvent,
} from '@agentry/sdk';
import {
  createTestDatabase,
  launchPlatform,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';

type Agent = components['schemas']['Agent'];

/**
 * The typed client generated from docs/openapi.json against the running platform: requests and replies
 * are typed by the document, and the resumable stream follows a turn to its end.
 */
describe('the typed client (@agentry/sdk)', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let client: AgentryClient;
  let token: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({ databaseUrl: db.url });
    const anonymous = createAgentryClient({ baseUrl: platform.gatewayUrl });
    const login = await anonymous.POST('/api/auth/login', { body: { username: 'admin', password: 'admin' } });
    expect(login.response.status).toBe(200);
    token = (login.data as { token: string }).token;
    client = createAgentryClient({ baseUrl: platform.gatewayUrl, token });
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  it('creates, reads, updates and lists agents with typed bodies and replies', async () => {
    const created = await client.POST('/v1/agents', {
      body: { name: 'typed', model: 'scripted', system: 'You are typed.' },
    });
    expect(created.error).toBeUndefined();
    const agent: Agent = created.data!;
    expect(agent.version).toBe(1);
    const updated = await client.POST('/v1/agents/{id}', {
      params: { path: { id: agent.id } },
      body: { version: agent.version, system: 'You are typed, twice.' },
    });
    expect(updated.data?.version).toBe(2);
    const listed = await client.GET('/v1/agents', { params: { query: { limit: 10 } } });
    expect(listed.data?.data.map((a) => a.id)).toContain(agent.id);
    const missing = await client.GET('/v1/agents/{id}', { params: { path: { id: 'agent_missing' } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error?.error.type).toBe('not_found_error');
  });

  it('streams a turn with the resumable helper, from the start of the session', async () => {
    const agent = (await client.POST('/v1/agents', { body: { name: 'streamed', model: 'scripted' } })).data!;
    const environment = (
      await client.POST('/v1/environments', { body: { name: 'remote', config: { type: 'remote' } } })
    ).data!;
    const session = (
      await client.POST('/v1/sessions', { body: { agent: agent.id, environment_id: environment.id } })
    ).data!;
    const sent = await client.POST('/v1/sessions/{id}/events', {
      params: { path: { id: session.id } },
      body: { events: [{ type: 'user.message', content: [{ type: 'text', text: 'Hello' }] }] },
    });
    expect(sent.error).toBeUndefined();
    const controller = new AbortController();
    const seen: StreamedEvent[] = [];
    for await (const event of streamSessionEvents({
      baseUrl: platform.gatewayUrl,
      path: `/v1/sessions/${session.id}/events/stream`,
      headers: { authorization: `Bearer ${token}` },
      lastEventId: 0,
      signal: controller.signal,
    })) {
      seen.push(event);
      if (event.type === 'session.status_idle') controller.abort();
    }
    const types = seen.map((e) => e.type);
    expect(types).toContain('user.message');
    expect(types).toContain('agent.message');
    const seqs = seen.map((e) => e.seq!);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
  });
});
