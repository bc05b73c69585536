import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  SseClient,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';

interface Created {
  id: string;
}

interface Tenant extends Created {
  default_namespace: Created;
  admin: Created;
}

interface User extends Created {
  username: string;
}

/** The part of the error envelope a refusal is checked by. */
interface ErrorEnvelope {
  error: { message: string };
}

/** A login's reply: the user signed in, or the error envelope. */
interface LoginReply {
  userId?: string;
  error?: { message: string };
}

/**
 * The tenancy path a customer walks: the installation administrator creates a tenant, its
 * administrator signs in and sets up a namespace and a member, the member sees only their own
 * namespace, tenants see nothing of each other, and a RUN share lets the member run a session on an
 * agent of another namespace.
 */
describe('tenancy: tenants, namespace membership and agent shares through the gateway', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let anonymous: ApiClient;
  let root: ApiClient;
  let hank: ApiClient;
  let rita: ApiClient;
  let tenant: Tenant;
  let research: Created;
  let ritaId: string;
  let globexAgent: string;
  let homeAgent: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({ databaseUrl: db.url });
    anonymous = new ApiClient(platform.gatewayUrl);
    root = await anonymous.login('admin', 'admin');
    homeAgent = (await root.post<Created>('/v1/agents', { name: 'home', model: 'scripted' })).body.id;
  });
  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  it('lets the installation administrator create a tenant whose administrator signs in to it', async () => {
    const created = await root.post<Tenant>('/v1/tenants', {
      name: 'Globex',
      slug: 'globex',
      admin: { username: 'hank', password: 'hank-pass-1' },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      type: 'tenant',
      slug: 'globex',
      default_namespace: { type: 'namespace', slug: 'default' },
      admin: { type: 'user', username: 'hank', role: 'admin' },
    });
    expect(JSON.stringify(created.body)).not.toContain('hank-pass-1');
    tenant = created.body;
    const listed = await root.get<{ data: Array<{ slug: string }> }>('/v1/tenants');
    expect(listed.body.data.map((t) => t.slug)).toEqual(['default', 'globex']);
    expect((await root.get<Array<{ slug: string }>>('/api/admin/tenants')).body.map((t) => t.slug)).toEqual([
      'default',
      'globex',
    ]);

    const bad = await root.post<ErrorEnvelope>('/v1/tenants', {
      name: 'Nope',
      slug: 'Not A Slug',
      admin: { username: 'nope', password: 'nope-pass-1' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^slug:/);

    hank = await anonymous.login('hank', 'hank-pass-1');
    // Only the bootstrap tenant's administrators manage tenants; Globex's own administrator is refused.
    const refused = await hank.post('/v1/tenants', {
      name: 'Evil',
      slug: 'evil',
      admin: { username: 'evil', password: 'evil-pass-1' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ type: 'error', error: { type: 'permission_error' } });
    expect((await hank.get('/v1/tenants')).status).toBe(403);
  });

  it('shows a member only the namespace they were put in', async () => {
    const ns = await hank.post<Created>('/api/admin/namespaces', { name: 'Research', slug: 'research' });
    expect(ns.status).toBe(200);
    research = ns.body;
    const user = await hank.post<Created>('/api/admin/users', {
      username: 'rita',
      password: 'rita-pass-1',
      namespaceId: research.id,
    });
    expect(user.status).toBe(200);
    ritaId = user.body.id;
    rita = await anonymous.login('rita', 'rita-pass-1');

    const namespaces = await rita.get('/api/namespaces');
    expect(namespaces.body).toEqual([
      expect.objectContaining({ id: research.id, slug: 'research', role: 'member' }),
    ]);
    const inDefault = await rita.get<ErrorEnvelope>('/v1/agents', {
      'x-agentry-namespace': tenant.default_namespace.id,
    });
    expect(inDefault.status).toBe(404);
    expect(inDefault.body.error.message).toMatch(/x-agentry-namespace/);
    // With no header she works in her first (and only) namespace.
    expect((await rita.post('/v1/agents', { name: 'rita-agent', model: 'scripted' })).status).toBe(200);
    expect(
      (
        await rita.get<{ data: Array<{ name: string }> }>('/v1/agents', {
          'x-agentry-namespace': research.id,
        })
      ).body.data.map((a) => a.name),
    ).toEqual(['rita-agent']);
    const members = await hank.get<User[]>(`/api/admin/namespaces/${research.id}/members`);
    expect(members.body.map((m) => m.username)).toEqual(expect.arrayContaining(['hank', 'rita']));
  });

  it('keeps tenants apart: every resource of the other tenant is 404 and its users are never listed', async () => {
    globexAgent = (await hank.post<Created>('/v1/agents', { name: 'globex-agent', model: 'scripted' })).body
      .id;
    expect((await root.get(`/v1/agents/${globexAgent}`)).status).toBe(404);
    expect((await hank.get(`/v1/agents/${homeAgent}`)).status).toBe(404);
    expect(
      (await root.get('/v1/agents', { 'x-agentry-namespace': tenant.default_namespace.id })).status,
    ).toBe(404);
    const users = (client: ApiClient) => client.get<User[]>('/api/admin/users');
    const rootUser = (await users(root)).body.find((u) => u.username === 'admin');
    const share = await hank.post(`/api/agents/${globexAgent}/shares`, {
      granteeId: rootUser!.id,
      tier: 'RUN',
    });
    expect(share.status).toBe(404);
    expect((await users(hank)).body.map((u) => u.username).sort()).toEqual(['hank', 'rita']);
    expect((await users(root)).body.map((u) => u.username)).toEqual(['admin']);
  });

  it("lets a RUN share run a session on another namespace's agent, and ends with the share", async () => {
    expect((await rita.get(`/v1/agents/${globexAgent}`)).status).toBe(404);
    const shared = await hank.post(`/api/agents/${globexAgent}/shares`, { granteeId: ritaId, tier: 'RUN' });
    expect(shared.status).toBe(200);
    expect((await rita.get(`/v1/agents/${globexAgent}`)).body).toMatchObject({
      id: globexAgent,
      name: 'globex-agent',
    });

    const environment = await rita.post<Created>('/v1/environments', {
      name: 'rita-env',
      config: { type: 'local' },
    });
    const session = await rita.post<Created>('/v1/sessions', {
      agent: globexAgent,
      environment_id: environment.body.id,
    });
    expect(session.status).toBe(200);
    const stream = await SseClient.open(
      `${platform.gatewayUrl}/v1/sessions/${session.body.id}/events/stream`,
      rita.authHeaders,
    );
    const sent = await rita.post(`/v1/sessions/${session.body.id}/events`, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'Hello from research' }] }],
    });
    expect(sent.status).toBe(200);
    const frames = await stream.waitFor((f) => f.some((x) => x.event === 'session.status_idle'));
    await stream.close();
    const reply = frames.find((f) => f.event === 'agent.message');
    expect((JSON.parse(reply!.data) as { content: Array<{ text: string }> }).content[0]?.text).toBe(
      'You said: Hello from research',
    );

    // RUN is not EDIT, and the session is Rita's, not the agent owner's.
    const update = await rita.post(`/v1/agents/${globexAgent}`, { version: 1, system: 'hijacked' });
    expect(update.status).toBe(403);
    expect((await hank.get(`/v1/sessions/${session.body.id}`)).status).toBe(404);

    expect((await hank.request('DELETE', `/api/agents/${globexAgent}/shares/user/${ritaId}`)).status).toBe(
      200,
    );
    expect((await rita.get(`/v1/agents/${globexAgent}`)).status).toBe(404);
    const again = await rita.post('/v1/sessions', {
      agent: globexAgent,
      environment_id: environment.body.id,
    });
    expect(again.status).toBe(404);
  });

  it('keeps usernames unique per tenant: a name taken in Globex is free at home, and login can name the tenant', async () => {
    const home = await root.post<Created>('/api/admin/users', {
      username: 'rita',
      password: 'home-rita-pass',
    });
    expect(home.status).toBe(200);
    expect(home.body.id).not.toBe(ritaId);
    const twice = await hank.post<ErrorEnvelope>('/api/admin/users', {
      username: 'RITA',
      password: 'another-pass-1',
    });
    expect(twice.status).toBe(409);
    expect(twice.body.error.message).toBe('username: "rita" is already taken');

    const login = (body: Record<string, string>) => anonymous.post<LoginReply>('/api/auth/login', body);
    expect((await login({ username: 'rita', password: 'rita-pass-1' })).body.userId).toBe(ritaId);
    expect((await login({ username: 'rita', password: 'home-rita-pass' })).body.userId).toBe(home.body.id);
    expect((await login({ username: 'rita', password: 'rita-pass-1', tenant: 'globex' })).body.userId).toBe(
      ritaId,
    );
    expect((await login({ username: 'rita', password: 'rita-pass-1', tenant: tenant.id })).body.userId).toBe(
      ritaId,
    );
    expect((await login({ username: 'rita', password: 'rita-pass-1', tenant: 'default' })).status).toBe(401);
    const empty = await login({ username: 'rita', password: 'rita-pass-1', tenant: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.error?.message).toMatch(/tenant/);

    // One password opening "sam" in both tenants cannot pick a tenant by itself: a 400 that says what to add.
    const homeSam = await root.post<Created>('/api/admin/users', {
      username: 'sam',
      password: 'shared-pass-1',
    });
    expect((await hank.post('/api/admin/users', { username: 'sam', password: 'shared-pass-1' })).status).toBe(
      200,
    );
    const ambiguous = await login({ username: 'sam', password: 'shared-pass-1' });
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.body.error?.message).toMatch(/several tenants; name the tenant/);
    expect((await login({ username: 'sam', password: 'shared-pass-1', tenant: 'default' })).body.userId).toBe(
      homeSam.body.id,
    );
  });
});
