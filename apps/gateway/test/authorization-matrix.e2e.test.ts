import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, createTestDatabase, launchPlatform, type ApiResponse, type RunningPlatform, type TestDatabase } from '@agentry/testing';

/** Ids a route path is filled with; `other*` live in a second namespace the member does not work in. */
interface Ids {
  agent: string;
  environment: string;
  session: string;
  user: string;
  key: string;
}

interface Route {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: (ids: Ids) => string;
  body?: (ids: Ids) => unknown;
  /** `write`: viewers get 403; `admin`: everyone but admins gets 403; `self`: any signed-in user. */
  access: 'read' | 'write' | 'admin' | 'self';
  /** Addresses a resource of another namespace (or user) when filled with `other` ids → 404. */
  scoped?: boolean;
}

const AGENT_BODY = { name: 'matrix', model: 'scripted' };
const ENV_BODY = { name: 'matrix-env', config: { type: 'local' } };

/** Every route the gateway registers for tenants' resources and access, with what it needs. */
const ROUTES: Route[] = [
  { method: 'POST', path: () => '/v1/agents', body: () => AGENT_BODY, access: 'write' },
  { method: 'GET', path: () => '/v1/agents', access: 'read' },
  { method: 'GET', path: (i) => `/v1/agents/${i.agent}`, access: 'read', scoped: true },
  { method: 'POST', path: () => '/v1/environments', body: () => ENV_BODY, access: 'write' },
  { method: 'GET', path: (i) => `/v1/environments/${i.environment}`, access: 'read', scoped: true },
  { method: 'POST', path: () => '/v1/sessions', body: (i) => ({ agent: i.agent, environment_id: i.environment }), access: 'write', scoped: true },
  { method: 'GET', path: (i) => `/v1/sessions/${i.session}`, access: 'read', scoped: true },
  {
    method: 'POST',
    path: (i) => `/v1/sessions/${i.session}/events`,
    body: () => ({ events: [{ type: 'user.message', content: [{ type: 'text', text: 'hi' }] }] }),
    access: 'write',
    scoped: true,
  },
  { method: 'GET', path: (i) => `/v1/sessions/${i.session}/events`, access: 'read', scoped: true },
  { method: 'GET', path: (i) => `/v1/sessions/${i.session}/events/stream`, access: 'read', scoped: true },
  { method: 'POST', path: () => '/api/auth/password', body: () => ({ currentPassword: 'wrong-password', newPassword: 'irrelevant-1' }), access: 'self' },
  { method: 'GET', path: () => '/api/admin/users', access: 'admin' },
  { method: 'POST', path: () => '/api/admin/users', body: () => ({ username: 'intruder', password: 'intruder-pass' }), access: 'admin' },
  { method: 'PATCH', path: (i) => `/api/admin/users/${i.user}`, body: () => ({ role: 'admin' }), access: 'admin' },
  { method: 'GET', path: () => '/api/namespaces', access: 'read' },
  { method: 'POST', path: () => '/api/admin/namespaces', body: () => ({ name: 'Intruders', slug: 'intruders' }), access: 'admin' },
  { method: 'POST', path: () => '/api/keys', body: () => ({ name: 'k', permissions: ['write'] }), access: 'write' },
  { method: 'GET', path: () => '/api/keys', access: 'self' },
  { method: 'DELETE', path: (i) => `/api/keys/${i.key}`, access: 'self', scoped: true },
  { method: 'GET', path: () => '/api/admin/audit-log', access: 'admin' },
  { method: 'GET', path: (i) => `/api/agents/${i.agent}/shares`, access: 'read', scoped: true },
  { method: 'POST', path: (i) => `/api/agents/${i.agent}/shares`, body: (i) => ({ granteeId: i.user, tier: 'RUN' }), access: 'write', scoped: true },
  { method: 'DELETE', path: (i) => `/api/agents/${i.agent}/shares/user/${i.user}`, access: 'write', scoped: true },
];

const label = (r: Route) => `${r.method} ${r.path({ agent: '{agent}', environment: '{env}', session: '{session}', user: '{user}', key: '{key}' })}`;

function call(client: ApiClient, route: Route, ids: Ids, headers: Record<string, string> = {}): Promise<ApiResponse> {
  return client.request(route.method, route.path(ids), route.body?.(ids), headers);
}

function expectError(response: ApiResponse, status: number, route: Route): void {
  expect({ route: label(route), status: response.status }).toEqual({ route: label(route), status });
  expect(response.body).toMatchObject({ type: 'error', error: { message: expect.any(String) } });
}

describe('authorization matrix: every route × credentials, namespaces, revocation and idempotency', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let anonymous: ApiClient;
  let admin: ApiClient;
  let member: ApiClient;
  let viewer: ApiClient;
  let own: Ids;
  let other: Ids;
  let otherNamespace: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({ databaseUrl: db.url });
    anonymous = new ApiClient(platform.gatewayUrl);
    admin = await anonymous.login('admin', 'admin');
    const m = await admin.post('/api/admin/users', { username: 'member', password: 'member-pass-1', role: 'member' });
    const v = await admin.post('/api/admin/users', { username: 'viewer', password: 'viewer-pass-1', role: 'viewer' });
    expect([m.status, v.status]).toEqual([200, 200]);
    member = await anonymous.login('member', 'member-pass-1');
    viewer = await anonymous.login('viewer', 'viewer-pass-1');

    const ns = await admin.post('/api/admin/namespaces', { name: 'Team B', slug: 'team-b' });
    expect(ns.status).toBe(200);
    otherNamespace = ns.body.id;
    const inB = { 'x-agentry-namespace': otherNamespace };
    const resources = async (client: ApiClient, headers: Record<string, string>) => {
      const agent = await client.post('/v1/agents', AGENT_BODY, headers);
      const environment = await client.post('/v1/environments', ENV_BODY, headers);
      const session = await client.post('/v1/sessions', { agent: agent.body.id, environment_id: environment.body.id }, headers);
      expect([agent.status, environment.status, session.status]).toEqual([200, 200, 200]);
      return { agent: agent.body.id as string, environment: environment.body.id as string, session: session.body.id as string };
    };
    const adminKey = await admin.post('/api/keys', { name: 'admin-own', permissions: ['read'] });
    own = { ...(await resources(member, {})), user: v.body.id, key: '' };
    other = { ...(await resources(admin, inB)), user: v.body.id, key: adminKey.body.id };
    const memberKey = await member.post('/api/keys', { name: 'member-own', permissions: ['read'] });
    own.key = memberKey.body.id;
  });

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  it('answers 401 on every route without credentials, and with a forged token or unknown key', async () => {
    const forged = anonymous.as({ token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl' });
    const unknownKey = anonymous.as({ apiKey: 'agk_not-a-real-key' });
    for (const route of ROUTES) {
      expectError(await call(anonymous, route, own), 401, route);
      expectError(await call(forged, route, own), 401, route);
      expectError(await call(unknownKey, route, own), 401, route);
    }
  });

  it('answers 403 when a viewer writes or a non-admin administers, and changes nothing', async () => {
    const agentsBefore = (await admin.get('/v1/agents?limit=100')).body.data.length;
    const usersBefore = (await admin.get('/api/admin/users?limit=100')).body.length;
    for (const route of ROUTES) {
      if (route.access === 'write' || route.access === 'admin') expectError(await call(viewer, route, own), 403, route);
      if (route.access === 'admin') expectError(await call(member, route, own), 403, route);
    }
    // A read-only API key is a viewer too.
    const readKey = await member.post('/api/keys', { name: 'ro', permissions: ['read'] });
    const asReadKey = anonymous.as({ apiKey: readKey.body.key });
    expectError(await asReadKey.post('/v1/agents', AGENT_BODY), 403, ROUTES[0]!);
    expect((await admin.get('/v1/agents?limit=100')).body.data.length).toBe(agentsBefore);
    expect((await admin.get('/api/admin/users?limit=100')).body.length).toBe(usersBefore);
    expect((await admin.get('/api/namespaces')).body.map((n: { slug: string }) => n.slug)).toEqual(['default', 'team-b']);
  });

  it('answers 404 for every route addressing another namespace’s resource (or another user’s key)', async () => {
    for (const route of ROUTES.filter((r) => r.scoped)) expectError(await call(member, route, other), 404, route);
    // The same routes work for the member on their own resources, so the 404s are about scope.
    expect((await member.get(`/v1/agents/${own.agent}`)).status).toBe(200);
    expect((await member.get(`/v1/sessions/${own.session}/events`)).status).toBe(200);
  });

  it('selects a namespace with x-agentry-namespace: unknown → 404, a key bound elsewhere → 403', async () => {
    const header = { 'x-agentry-namespace': otherNamespace };
    expect((await member.get(`/v1/agents/${other.agent}`, header)).status).toBe(200);
    expect((await member.get(`/v1/agents/${own.agent}`, header)).status).toBe(404);
    const unknown = await member.get('/v1/agents', { 'x-agentry-namespace': 'ns_nowhere' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toMatch(/x-agentry-namespace/);
    const key = await member.post('/api/keys', { name: 'default-only', permissions: ['read', 'write'] });
    const asKey = anonymous.as({ apiKey: key.body.key });
    expect((await asKey.get(`/v1/agents/${own.agent}`)).status).toBe(200);
    expect((await asKey.get('/v1/agents', header)).status).toBe(403);
  });

  it('shows a key once, and answers 401 on every route right after it is revoked', async () => {
    const created = await member.post('/api/keys', { name: 'to-revoke', permissions: ['read', 'write'] });
    expect(created.status).toBe(200);
    expect(created.body.key).toMatch(/^agk_/);
    const listed = await member.get('/api/keys');
    expect(JSON.stringify(listed.body)).not.toContain(created.body.key);
    const asKey = anonymous.as({ apiKey: created.body.key });
    expect((await asKey.get(`/v1/agents/${own.agent}`)).status).toBe(200);
    const revoked = await member.request('DELETE', `/api/keys/${created.body.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).toEqual(expect.any(String));
    for (const route of ROUTES) expectError(await call(asKey, route, own), 401, route);
  });

  it('disabling a user ends their token at once; a password change needs the current password', async () => {
    const temp = await admin.post('/api/admin/users', { username: 'temp', password: 'temp-pass-1' });
    const asTemp = await anonymous.login('temp', 'temp-pass-1');
    const wrong = await asTemp.post('/api/auth/password', { currentPassword: 'nope', newPassword: 'temp-pass-2' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toMatch(/currentPassword/);
    expect((await asTemp.post('/api/auth/password', { currentPassword: 'temp-pass-1', newPassword: 'temp-pass-2' })).status).toBe(200);
    expect((await anonymous.post('/api/auth/login', { username: 'temp', password: 'temp-pass-1' })).status).toBe(401);
    expect((await admin.request('PATCH', `/api/admin/users/${temp.body.id}`, { disabled: true })).status).toBe(200);
    expect((await asTemp.get('/v1/agents')).status).toBe(401);
    const audit = await admin.get(`/api/admin/audit-log?resourceType=user&resourceId=${temp.body.id}`);
    expect(audit.body.map((e: { action: string }) => e.action)).toEqual(['update', 'change_password', 'create']);
  });

  it('replays a POST with the same Idempotency-Key and body, and refuses the key with another body', async () => {
    const count = async () => (await member.get('/v1/agents?limit=100')).body.data.length as number;
    const before = await count();
    const headers = { 'idempotency-key': 'create-once-1' };
    const first = await member.post('/v1/agents', { name: 'once', model: 'scripted' }, headers);
    const again = await member.post('/v1/agents', { model: 'scripted', name: 'once' }, headers);
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await count()).toBe(before + 1);

    const conflict = await member.post('/v1/agents', { name: 'different', model: 'scripted' }, headers);
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
    // Another caller's use of the same key is a different request, never someone else's response.
    expect((await admin.post('/v1/agents', { name: 'once', model: 'scripted' }, headers)).status).toBe(409);
    expect(await count()).toBe(before + 1);

    // A failed request frees its key: the corrected retry runs.
    const bad = await member.post('/v1/agents', { name: 'fixme' }, { 'idempotency-key': 'retry-after-fix' });
    expect(bad.status).toBe(400);
    const fixed = await member.post('/v1/agents', { name: 'fixme', model: 'scripted' }, { 'idempotency-key': 'retry-after-fix' });
    expect(fixed.status).toBe(200);
    expect(await count()).toBe(before + 2);
  });

  it('never runs concurrent duplicates twice: the others replay or are told the first is in progress', async () => {
    const count = async () => (await member.get('/v1/agents?limit=100')).body.data.length as number;
    const before = await count();
    const headers = { 'idempotency-key': 'concurrent-1' };
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => member.post('/v1/agents', { name: 'racer', model: 'scripted' }, headers)),
    );
    const ok = responses.filter((r) => r.status === 200);
    const busy = responses.filter((r) => r.status === 409);
    expect(ok.length + busy.length).toBe(5);
    expect(new Set(ok.map((r) => r.body.id)).size).toBe(1);
    for (const r of busy) expect(r.body.error.message).toMatch(/in progress/);
    expect(await count()).toBe(before + 1);
  });
});
