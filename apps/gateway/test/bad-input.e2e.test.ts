import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ID_PREFIXES, newId } from '@agentry/contracts';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  SseClient,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import type { Created, ErrorReply, Page, SessionEvent } from './wire-types.js';

/** The model tries to write outside the session's workdir. */
const ESCAPE = {
  turns: [
    {
      reply: [
        { toolCall: { name: 'write', input: { file_path: '../../escaped.txt', content: 'gotcha' } } },
        'Tried.',
      ],
    },
  ],
};

describe('bad input gets a typed 4xx and changes nothing', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;
  let sessionId: string;

  const eventCount = async () =>
    (await api.get<Page<SessionEvent>>(`/v1/sessions/${sessionId}/events?limit=1000`)).body.data.length;

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({ databaseUrl: db.url });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    const agent = await api.post<Created>('/v1/agents', {
      name: 'escaper',
      model: { id: 'scripted', script: ESCAPE },
      tools: [{ type: 'agent_toolset_20260401' }],
    });
    const environment = await api.post<Created>('/v1/environments', {
      name: 'local',
      config: { type: 'local' },
    });
    sessionId = (
      await api.post<Created>('/v1/sessions', { agent: agent.body.id, environment_id: environment.body.id })
    ).body.id;
  });

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  it('rejects an unknown event type, naming it', async () => {
    const response = await api.post<ErrorReply>(`/v1/sessions/${sessionId}/events`, {
      events: [{ type: 'user.shout', content: [] }],
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(response.body.error.message).toMatch(/events\.0\.type/);
    expect(response.headers.get('request-id')).toBe(response.body.request_id);
    expect(await eventCount()).toBe(0);
  });

  it('rejects a batch with one bad event as a whole', async () => {
    const response = await api.post(`/v1/sessions/${sessionId}/events`, {
      events: [
        { type: 'user.message', content: [{ type: 'text', text: 'ok' }] },
        { type: 'user.message', content: 'nope', extra: 1 },
      ],
    });
    expect(response.status).toBe(400);
    expect(await eventCount()).toBe(0);
  });

  it('rejects malformed JSON', async () => {
    const response = await api.post<ErrorReply>(`/v1/sessions/${sessionId}/events`, '{"events": [', {});
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: 'invalid_request_error' });
    expect(response.body.error.message).toMatch(/JSON/);
    expect(await eventCount()).toBe(0);
  });

  it('rejects missing and bad credentials with 401', async () => {
    const anonymous = new ApiClient(platform.gatewayUrl);
    for (const response of [
      await anonymous.get('/v1/agents'),
      await anonymous.post(`/v1/sessions/${sessionId}/events`, {
        events: [{ type: 'user.message', content: [] }],
      }),
      await anonymous.as({ token: 'a.b.c' }).get('/v1/agents'),
      await anonymous.as({ apiKey: 'agk_not_a_key' }).get('/v1/agents'),
    ]) {
      expect(response.status).toBe(401);
      expect((response.body as ErrorReply).error.type).toBe('authentication_error');
    }
    const stream = await SseClient.open(`${platform.gatewayUrl}/v1/sessions/${sessionId}/events/stream`);
    expect(stream.status).toBe(401);
    expect(await eventCount()).toBe(0);
  });

  it("hides someone else's session behind 404", async () => {
    const tenantId = newId(ID_PREFIXES.tenant);
    const namespaceId = newId(ID_PREFIXES.namespace);
    const key = `agk_${newId(ID_PREFIXES.apiKey)}`;
    await db.prisma.tenant.create({ data: { id: tenantId, name: 'other', slug: 'other' } });
    await db.prisma.namespace.create({ data: { id: namespaceId, tenantId, name: 'other', slug: 'other' } });
    await db.prisma.apiKey.create({
      data: {
        id: newId(ID_PREFIXES.apiKey),
        tenantId,
        namespaceId,
        name: 'outsider',
        prefix: key.slice(0, 8),
        keyHash: createHash('sha256').update(key).digest('hex'),
        permissions: ['read', 'write'],
      },
    });
    const outsider = new ApiClient(platform.gatewayUrl).as({ apiKey: key });
    expect((await outsider.get(`/v1/sessions/${sessionId}`)).status).toBe(404);
    expect((await outsider.get(`/v1/sessions/${sessionId}/events`)).status).toBe(404);
    const post = await outsider.post<ErrorReply>(`/v1/sessions/${sessionId}/events`, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'hi' }] }],
    });
    expect(post.status).toBe(404);
    expect(post.body.error.type).toBe('not_found_error');
    const stream = await SseClient.open(
      `${platform.gatewayUrl}/v1/sessions/${sessionId}/events/stream`,
      outsider.authHeaders,
    );
    expect(stream.status).toBe(404);
    expect(await eventCount()).toBe(0);
  });

  it('refuses a ../ path in a tool call and writes nothing outside the workdir', async () => {
    const stream = await SseClient.open(
      `${platform.gatewayUrl}/v1/sessions/${sessionId}/events/stream`,
      api.authHeaders,
    );
    await api.post(`/v1/sessions/${sessionId}/events`, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'escape' }] }],
    });
    const frames = await stream.waitFor((f) => f.some((x) => x.event === 'session.status_idle'));
    await stream.close();
    const result = JSON.parse(frames.find((f) => f.event === 'agent.tool_result')!.data) as SessionEvent;
    expect(result.is_error).toBe(true);
    expect(result.content?.[0]?.text).toMatch(/outside|escape|\.\./i);
    const tenantDirs = readdirSync(platform.workdirRoot);
    for (const dir of [
      platform.workdirRoot,
      ...tenantDirs.flatMap((t) => [join(platform.workdirRoot, t), join(platform.workdirRoot, t, sessionId)]),
    ]) {
      expect(existsSync(join(dir, 'escaped.txt'))).toBe(false);
    }
  });
});
