import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import { completeTurn, waitFor } from './outage-fixture.js';
import type { Created, ErrorReply, Page, SessionEvent } from './wire-types.js';

const LOCKOUT_SECONDS = 3;

describe('hostile and careless input', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;
  let anonymous: ApiClient;

  const agentCount = async () => (await api.get<Page<Created>>('/v1/agents?limit=100')).body.data.length;
  const login = (username: string, password: string) =>
    anonymous.post('/api/auth/login', { username, password });

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({
      databaseUrl: db.url,
      env: { AGENTRY_LOGIN_MAX_FAILURES: '3', AGENTRY_LOGIN_LOCKOUT_SECONDS: String(LOCKOUT_SECONDS) },
    });
    anonymous = new ApiClient(platform.gatewayUrl);
    api = await anonymous.login('admin', 'admin');
  });

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  it('rejects a NUL or an unpaired surrogate in any string field with a typed 400 naming the field', async () => {
    const before = await agentCount();
    for (const name of ['bad\u0000name', 'bad\uD800name', '\uDC00']) {
      const response = await api.post<ErrorReply>('/v1/agents', { name, model: { id: 'scripted' } });
      expect(response.status, JSON.stringify(name)).toBe(400);
      expect(response.body).toMatchObject({
        type: 'error',
        error: { type: 'invalid_request_error', code: 'INVALID_REQUEST' },
      });
      expect(response.body.error.message).toMatch(/^name: contains (a NUL|an unpaired)/);
    }
    const nested = await api.post<ErrorReply>('/v1/agents', {
      name: 'ok',
      model: { id: 'scripted' },
      metadata: { note: 'x\u0000' },
    });
    expect(nested.status).toBe(400);
    expect(nested.body.error.message).toMatch(/^metadata\.note: /);
    const legacy = await api.post<ErrorReply>('/api/agents', { name: 'nul\u0000' });
    expect(legacy.status).toBe(400);
    expect(legacy.body.error.param).toBe('name');
    expect(await agentCount()).toBe(before);
  });

  it('accepts content-type: application/json with an empty body where no body is needed', async () => {
    const environment = await api.post<Created>('/v1/environments', {
      name: 'worker',
      config: { type: 'self_hosted' },
    });
    const response = await api.request<{ key: string }>(
      'POST',
      `/v1/environments/${environment.body.id}/keys`,
      '',
      {
        'content-type': 'application/json',
      },
    );
    expect(response.status).toBe(200);
    expect(response.body.key).toEqual(expect.any(String));
    // A route that needs a body still says so.
    const missing = await api.request<ErrorReply>('POST', '/v1/agents', '', {
      'content-type': 'application/json',
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error.type).toBe('invalid_request_error');
  });

  it('issues an environment key for every environment type created through /api', async () => {
    for (const type of ['local', 'remote', 'self_hosted']) {
      const created = await api.post<{ apiKey: string }>('/api/environments', { name: `env-${type}`, type });
      expect(created.status, type).toBe(200);
      expect(created.body.apiKey, type).toEqual(expect.any(String));
    }
  });

  it('locks a username after repeated wrong passwords, with 429 and retry-after, then lets it in again', async () => {
    const created = await api.post('/api/admin/users', {
      username: 'mallory-target',
      password: 'right-password-123',
      role: 'member',
    });
    expect([200, 201]).toContain(created.status);
    expect((await login('mallory-target', 'wrong-1')).status).toBe(401);
    expect((await login('mallory-target', 'wrong-2')).status).toBe(401);
    const third = await login('mallory-target', 'wrong-3');
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(third.body).toMatchObject({
      type: 'error',
      error: { type: 'rate_limit_error', code: 'RATE_LIMITED' },
    });
    const locked = await login('mallory-target', 'right-password-123');
    expect(locked.status).toBe(429);
    expect((await login('admin', 'admin')).status).toBe(200);
    await waitFor(
      () => login('mallory-target', 'right-password-123'),
      (r) => r.status === 200,
      (LOCKOUT_SECONDS + 3) * 1000,
      'login after the lockout',
    );
  });

  it('keeps web_fetch away from the platform itself, whatever the spelling of the address', async () => {
    const port = new URL(platform.gatewayUrl).port;
    const urls = [`http://127.0.0.1:${port}/readyz`, `http://0x7f000001:${port}/readyz`];
    const script = {
      turns: [
        { reply: [...urls.map((url) => ({ toolCall: { name: 'web_fetch', input: { url } } })), 'done'] },
      ],
    };
    const agent = await api.post<Created>('/v1/agents', {
      name: 'fetcher',
      model: { id: 'scripted', script },
      tools: [{ type: 'agent_toolset_20260401' }],
    });
    const environment = await api.post<Created>('/v1/environments', {
      name: 'local',
      config: { type: 'local' },
    });
    const session = await api.post<Created>('/v1/sessions', {
      agent: agent.body.id,
      environment_id: environment.body.id,
    });
    await completeTurn(api, session.body.id, 'fetch', 30_000);
    const events = (await api.get<Page<SessionEvent>>(`/v1/sessions/${session.body.id}/events?limit=1000`))
      .body.data;
    const results = events.filter((e) => e.type === 'agent.tool_result');
    expect(results).toHaveLength(urls.length);
    for (const result of results) {
      expect(JSON.stringify(result)).toMatch(/loopback address; fetching it is not allowed/);
      expect(JSON.stringify(result)).not.toMatch(/"status":"ok"/);
    }
  });
});
