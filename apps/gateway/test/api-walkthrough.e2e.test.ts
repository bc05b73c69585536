import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  launchPlatform,
  SseClient,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import type { Created, ErrorReply } from './wire-types.js';

/** An /api agent, read for its toolsets and its team. */
interface ApiAgent {
  id: string;
  tools: Array<{ defaultConfig: unknown; configs: Array<{ name: string }> }>;
  multiagent?: { type: string; agents: Array<{ id: string }> };
}

interface ApiEnvironment {
  id: string;
  apiKey?: string;
}

/** An /api session event. */
interface ApiEvent {
  seq: number;
  type: string;
  payload: { content?: Array<{ text?: string }> };
}

/** What archiving answers with, read for when. */
interface Archived {
  archivedAt: string | null;
}

/** Matches any string where the exact value is not known in advance (ids, keys, timestamps). */
const anyString: unknown = expect.any(String);

/**
 * The AgentScope walkthrough (seed 003) over plain HTTP: log in, define the three-agent team with
 * camelCase toolsets, create an environment and a session, send a message and read the events back.
 */
describe('/api walkthrough', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let token: string;
  const ids: Record<string, string> = {};

  async function call<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    auth = true,
  ): Promise<{ status: number; body: T; headers: Headers }> {
    const headers: Record<string, string> = {};
    if (auth) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${platform.gatewayUrl}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: (text ? JSON.parse(text) : null) as T,
      headers: response.headers,
    };
  }

  function expectApiError(response: { status: number; body: unknown }, status: number, type: string) {
    expect(response.status).toBe(status);
    expect(response.body).toMatchObject({
      type: 'error',
      error: { type, code: anyString, message: anyString },
    });
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({ databaseUrl: db.url, env: { AGENTRY_SSE_HEARTBEAT_MS: '1000' } });
  });

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  it('logs in as admin/admin and rejects a wrong password with the typed envelope', async () => {
    const login = await call<{ token: string }>(
      'POST',
      '/api/auth/login',
      { username: 'admin', password: 'admin' },
      false,
    );
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ token: anyString, username: 'admin' });
    token = login.body.token;
    expectApiError(
      await call('POST', '/api/auth/login', { username: 'admin', password: 'nope' }, false),
      401,
      'authentication_error',
    );
    expectApiError(await call('GET', '/api/agents', undefined, false), 401, 'authentication_error');
  });

  it('creates Ops Publisher, Repo Surgeon and Team Lead with their toolsets', async () => {
    const ops = await call<ApiAgent>('POST', '/api/agents', {
      name: 'Ops Publisher',
      model: 'scripted',
      system: 'Draft changelogs and ticket outlines. Do not invoke tools or modify external systems.',
      tools: [
        {
          type: 'agent_toolset',
          defaultConfig: { enabled: false, permissionPolicy: { type: 'deny' } },
          configs: [{ name: 'read_file', enabled: true, permissionPolicy: { type: 'always_allow' } }],
        },
      ],
    });
    expect(ops.status).toBe(200);
    expect(ops.body).toMatchObject({
      name: 'Ops Publisher',
      model: 'scripted',
      version: 1,
      archivedAt: null,
    });
    // deny has no CMA equivalent: the toolset is disabled by default, read stays allowed, under the name written.
    expect(ops.body.tools[0]).toMatchObject({
      type: 'agent_toolset',
      defaultConfig: { enabled: false },
      configs: [{ name: 'read_file', enabled: true, permissionPolicy: { type: 'always_allow' } }],
    });
    ids.ops = ops.body.id;

    const repo = await call<ApiAgent>('POST', '/api/agents', {
      name: 'Repo Surgeon',
      model: 'scripted',
      system: 'You review the user workspace in read-only mode and report release risks.',
      tools: [
        {
          type: 'agent_toolset',
          defaultConfig: { enabled: true, permissionPolicy: { type: 'always_allow' } },
          configs: [
            { name: 'read_file', enabled: true },
            { name: 'grep_files', enabled: true },
            { name: 'list_files', enabled: true },
          ],
        },
      ],
    });
    expect(repo.status).toBe(200);
    expect(repo.body.tools[0]!.defaultConfig).toEqual({
      enabled: true,
      permissionPolicy: { type: 'always_allow' },
    });
    expect(repo.body.tools[0]!.configs.map((c) => c.name)).toEqual(['read_file', 'grep_files', 'list_files']);
    // /v1 serves the same agent under the CMA names.
    const repoV1 = await call<ApiAgent>('GET', `/v1/agents/${repo.body.id}`);
    expect(repoV1.body.tools[0]!.configs.map((c) => c.name)).toEqual(['read', 'grep', 'glob']);
    ids.repo = repo.body.id;

    const lead = await call<ApiAgent>('POST', '/api/agents', {
      name: 'Team Lead',
      model: 'scripted',
      system: 'You coordinate Repo Surgeon and Ops Publisher.',
      tools: [
        {
          type: 'agent_toolset',
          defaultConfig: { enabled: true, permissionPolicy: { type: 'always_allow' } },
          configs: [
            { name: 'sessions_spawn', enabled: true },
            { name: 'sessions_list', enabled: true },
            { name: 'sessions_pending_completions', enabled: true },
            { name: 'wait_async_results', enabled: true },
          ],
        },
      ],
      multiagent: {
        type: 'agent_team',
        agents: [
          { type: 'agent', id: ids.repo },
          { type: 'agent', id: ids.ops },
        ],
      },
    });
    expect(lead.status).toBe(200);
    expect(lead.body.multiagent?.type).toBe('coordinator');
    expect(lead.body.multiagent?.agents.map((a) => a.id)).toEqual([ids.repo, ids.ops]);
    ids.lead = lead.body.id;

    const listed = await call<Created[]>('GET', '/api/agents');
    expect(listed.status).toBe(200);
    expect(Array.isArray(listed.body)).toBe(true);
    expect(listed.body.map((a) => a.id).sort()).toEqual([ids.ops, ids.repo, ids.lead].sort());
    const one = await call<ApiAgent>('GET', `/api/agents/${ids.repo}`);
    expect(one.body).toMatchObject({ id: ids.repo, name: 'Repo Surgeon', createdAt: anyString });
    // Read back later, /api still gives exactly the names the client wrote (not the CMA names it runs under).
    expect(one.body.tools[0]!.configs.map((c) => c.name)).toEqual(['read_file', 'grep_files', 'list_files']);
  });

  it('rejects a nameless agent, naming the field, and creates nothing', async () => {
    const bad = await call<ErrorReply>('POST', '/api/agents', { description: 'no name' });
    expectApiError(bad, 400, 'invalid_request_error');
    expect(bad.body.error.param).toBe('name');
    expectApiError(await call('POST', '/api/agents', '{"name": "broken'), 400, 'invalid_request_error');
    expectApiError(await call('GET', '/api/agents/agent_missing'), 404, 'not_found_error');
    expect((await call('GET', '/api/agents')).body).toHaveLength(3);
  });

  it('creates a local environment and a session, sends a message and reads the turn back', async () => {
    const environment = await call<ApiEnvironment>('POST', '/api/environments', {
      name: 'laptop',
      type: 'local',
    });
    expect(environment.status).toBe(200);
    expect(environment.body).toMatchObject({
      name: 'laptop',
      type: 'local',
      archivedAt: null,
      apiKey: anyString,
    });
    expect((await call('GET', `/api/environments/${environment.body.id}`)).body).not.toHaveProperty('apiKey');

    const session = await call<Created>('POST', '/api/sessions', {
      agent: ids.repo,
      environmentId: environment.body.id,
    });
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({
      agentId: ids.repo,
      agentVersion: 1,
      environmentId: environment.body.id,
      status: 'idle',
    });
    const sessionId = session.body.id;

    // Without a resume point the /api stream replays from the start, as AgentScope's did.
    const stream = await SseClient.open(`${platform.gatewayUrl}/api/sessions/${sessionId}/events/stream`, {
      authorization: `Bearer ${token}`,
    });
    expect(stream.status).toBe(200);
    const sent = await call('POST', `/api/sessions/${sessionId}/events`, {
      events: [{ type: 'user.message', payload: { text: 'List the release risks.' } }],
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual([
      expect.objectContaining({
        sessionId,
        seq: 1,
        type: 'user.message',
        payload: { content: [{ type: 'text', text: 'List the release risks.' }] },
      }),
    ]);

    const frames = await stream.waitFor((f) => f.some((x) => x.event === 'session.status_idle'));
    await stream.close();
    const streamed = frames.map((f) => ({ id: Number(f.id), data: JSON.parse(f.data) as ApiEvent }));
    expect(streamed.map((f) => f.id)).toEqual(streamed.map((f) => f.data.seq));
    expect(streamed[0]!.data).toMatchObject({ type: 'user.message', seq: 1 });

    const events = await call<ApiEvent[]>('GET', `/api/sessions/${sessionId}/events`);
    expect(events.status).toBe(200);
    expect(events.body.map((e) => e.seq)).toEqual(streamed.map((f) => f.id));
    const reply = events.body.find((e) => e.type === 'agent.message');
    expect(reply?.payload.content?.[0]?.text).toBe('You said: List the release risks.');
    expect(events.body.at(-1)).toMatchObject({
      type: 'session.status_idle',
      payload: { stop_reason: { type: 'end_turn' } },
    });

    const after = await call<ApiEvent[]>('GET', `/api/sessions/${sessionId}/events?after=1`);
    expect(after.body.map((e) => e.seq)).toEqual(streamed.slice(1).map((f) => f.id));

    const bad = await call<ErrorReply>('POST', `/api/sessions/${sessionId}/events`, {
      events: [{ type: 'user.message', payload: {} }],
    });
    expectApiError(bad, 400, 'invalid_request_error');
    expect(bad.body.error.param).toMatch(/^events\.0/);
    expect((await call('GET', `/api/sessions/${sessionId}/events`)).body).toHaveLength(events.body.length);

    expect((await call('GET', `/api/sessions/${sessionId}`)).body).toMatchObject({
      status: 'idle',
      stopReason: 'end_turn',
    });
  });
  it('versions, archives and lists agents, environments and sessions in camelCase', async () => {
    const stale = await call('PUT', `/api/agents/${ids.ops}`, { name: 'Ops Publisher', version: 7 });
    expectApiError(stale, 409, 'conflict_error');
    const updated = await call<ApiAgent>('PUT', `/api/agents/${ids.ops}`, {
      name: 'Ops Publisher',
      system: 'Draft only.',
      version: 1,
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ version: 2, system: 'Draft only.' });
    // Omitted collections keep their value across versions.
    expect(updated.body.tools).toEqual(
      (await call<ApiAgent>('GET', `/api/agents/${ids.ops}/versions/1`)).body.tools,
    );
    const versions = await call<Array<{ version: number }>>('GET', `/api/agents/${ids.ops}/versions`);
    expect(versions.body.map((v) => v.version).sort()).toEqual([1, 2]);
    expectApiError(await call('GET', `/api/agents/${ids.ops}/versions/zero`), 400, 'invalid_request_error');
    const archived = await call<Archived>('POST', `/api/agents/${ids.ops}/archive`);
    expect(archived.status).toBe(200);
    expect(archived.body.archivedAt).toEqual(expect.any(String));

    const worker = await call<ApiEnvironment>('POST', '/api/environments', {
      name: 'on-prem',
      type: 'self_hosted',
    });
    expect(worker.status).toBe(200);
    expect(worker.body).toMatchObject({ type: 'self_hosted', apiKey: anyString });
    const rotated = await call<ApiEnvironment>('POST', `/api/environments/${worker.body.id}/rotate-key`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.apiKey).toEqual(expect.any(String));
    expect(rotated.body.apiKey).not.toBe(worker.body.apiKey);
    expect((await call('GET', `/api/environments/${worker.body.id}`)).body).not.toHaveProperty('apiKey');
    const renamed = await call('PATCH', `/api/environments/${worker.body.id}`, { name: 'on-prem-2' });
    expect(renamed.body).toMatchObject({ name: 'on-prem-2', type: 'self_hosted' });
    const environments = await call<Array<{ name: string }>>('GET', '/api/environments');
    expect(environments.body.map((e) => e.name).sort()).toEqual(['laptop', 'on-prem-2']);
    const envArchived = await call<Archived>('POST', `/api/environments/${worker.body.id}/archive`);
    expect(envArchived.body.archivedAt).toEqual(expect.any(String));

    const sessions = await call<Created[]>('GET', '/api/sessions');
    expect(sessions.status).toBe(200);
    expect(sessions.body).toHaveLength(1);
    const sessionId = sessions.body[0]!.id;
    const titled = await call('PATCH', `/api/sessions/${sessionId}`, { title: 'release review' });
    expect(titled.body).toMatchObject({ id: sessionId, title: 'release review' });
    const fixed = await call<ErrorReply>('PATCH', `/api/sessions/${sessionId}`, {
      environmentId: 'env_other',
    });
    expectApiError(fixed, 400, 'invalid_request_error');
    expect(fixed.body.error.message).toContain('environmentId');
    const archivedSession = await call('POST', `/api/sessions/${sessionId}/archive`);
    expect(archivedSession.body).toMatchObject({ id: sessionId, status: 'archived' });
    expect((await call('GET', '/api/sessions')).body).toEqual([]);
    expect((await call<Created[]>('GET', '/api/sessions?status=archived')).body.map((x) => x.id)).toEqual([
      sessionId,
    ]);
    expectApiError(await call('GET', '/api/sessions?status=sleeping'), 400, 'invalid_request_error');
    const restored = await call('POST', `/api/sessions/${sessionId}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ id: sessionId, archivedAt: null });
    expect((await call<Created[]>('GET', '/api/sessions')).body.map((x) => x.id)).toEqual([sessionId]);
  });
  it('keeps vaults and memory stores in camelCase', async () => {
    const vault = await call<Created>('POST', '/api/vaults', {
      displayName: 'release secrets',
      metadata: { team_name: 'ops' },
    });
    expect(vault.status).toBe(200);
    expect(vault.body).toMatchObject({
      displayName: 'release secrets',
      metadata: { team_name: 'ops' },
      archivedAt: null,
    });
    const emptyName = await call<ErrorReply>('POST', '/api/vaults', { displayName: '' });
    expectApiError(emptyName, 400, 'invalid_request_error');
    expect(emptyName.body.error.param).toBe('displayName');
    expect((await call<Created[]>('GET', '/api/vaults')).body.map((v) => v.id)).toEqual([vault.body.id]);

    const store = await call<Created>('POST', '/api/memory-stores', {
      name: 'release notes',
      description: 'what shipped',
    });
    expect(store.status).toBe(200);
    expect(store.body).toMatchObject({
      name: 'release notes',
      createdAt: anyString,
      archivedAt: null,
    });
    const archived = await call<Archived>('POST', `/api/memory-stores/${store.body.id}/archive`);
    expect(archived.body.archivedAt).toEqual(expect.any(String));
    expect((await call('DELETE', `/api/vaults/${vault.body.id}`)).status).toBe(204);
    expectApiError(await call('GET', `/api/vaults/${vault.body.id}`), 404, 'not_found_error');
  });
});
