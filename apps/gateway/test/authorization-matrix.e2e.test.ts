import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import { bodyRefers, missingBody } from './route-bodies.js';
import { classify, loadOperations, type Access, type Operation } from './route-catalog.js';
import { databaseSnapshot, snapshotDiff } from './db-snapshot.js';
import { createNamespaceFixtures, refusalSnapshot, type NamespaceFixtures } from './route-fixtures.js';
import { isNamespaced, scopedParams, unfillable, type FixtureKey, type Fixtures } from './route-params.js';
import { inBatches, problemWith, runProbes, send, type Expectation, type Probe } from './route-probes.js';
import type { Created, ErrorReply, Page } from './wire-types.js';

/** An API key as made: its secret is shown this once. */
interface NewKey {
  id: string;
  key: string;
}

interface User {
  id: string;
  username: string;
}

/** The routes come from the committed OpenAPI document, so a new route is in the matrix the day it lands. */
const OPERATIONS = loadOperations();
const DOCUMENTED = new Set(OPERATIONS.map((op) => op.label));
const GUARDED = OPERATIONS.filter((op) => classify(op) !== 'public');
const FORGED_JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';

const withAccess = (...access: Access[]) => OPERATIONS.filter((op) => access.includes(classify(op)!));
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const apiKey = (key: string) => ({ 'x-api-key': key });
/** Both ways a worker presents an environment key: CMA's bearer and AgentScope's header. */
const environmentKey = (key: string) => ({ ...bearer(key), 'x-builder-environment-key': key });

describe('authorization matrix: every documented route × credentials, namespaces, revocation and idempotency', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let anonymous: ApiClient;
  let admin: ApiClient;
  let member: ApiClient;
  let viewer: ApiClient;
  let mine: NamespaceFixtures;
  let theirs: NamespaceFixtures;
  let own: Fixtures;
  let other: Fixtures;
  let inB: Record<string, string>;
  /** Every resource kind, made by another tenant's administrator in that tenant. */
  let otherTenant: Fixtures;
  const keys = { memberRead: '', memberWrite: '', admin: '' };

  const run = (probes: Probe[]) => runProbes(platform.gatewayUrl, probes);
  /** Every operation given, called by one caller on the member's own resources. */
  const probes = (
    ops: Operation[],
    who: string,
    headers: Record<string, string>,
    expect: Expectation,
  ): Probe[] => ops.map((op) => ({ op, who, headers, ids: own, expect }));
  const snapshot = () => refusalSnapshot(admin, member, own, other, inB);

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({ databaseUrl: db.url, readyTimeoutMs: 400_000 });
    anonymous = new ApiClient(platform.gatewayUrl);
    admin = await anonymous.login('admin', 'admin');
    const m = await admin.post<Created>('/api/admin/users', {
      username: 'member',
      password: 'member-pass-1',
      role: 'member',
    });
    const v = await admin.post<Created>('/api/admin/users', {
      username: 'viewer',
      password: 'viewer-pass-1',
      role: 'viewer',
    });
    expect([m.status, v.status]).toEqual([200, 200]);
    [member, viewer] = await Promise.all([
      anonymous.login('member', 'member-pass-1'),
      anonymous.login('viewer', 'viewer-pass-1'),
    ]);
    const ns = await admin.post<Created>('/api/admin/namespaces', { name: 'Team B', slug: 'team-b' });
    expect(ns.status).toBe(200);
    inB = { 'x-agentry-namespace': ns.body.id };
    [mine, theirs] = await Promise.all([
      createNamespaceFixtures(member, {}, DOCUMENTED),
      createNamespaceFixtures(admin, inB, DOCUMENTED),
    ]);
    const [memberRead, memberWrite, adminKey, namespaces, users] = await Promise.all([
      member.post<NewKey>('/api/keys', { name: 'member-read', permissions: ['read'] }),
      member.post<NewKey>('/api/keys', { name: 'member-write', permissions: ['read', 'write'] }),
      admin.post<NewKey>('/api/keys', { name: 'admin-own', permissions: ['read', 'write'] }),
      member.get<Array<{ id: string; slug: string }>>('/api/namespaces'),
      admin.get<User[]>('/api/admin/users?limit=100'),
    ]);
    Object.assign(keys, {
      memberRead: memberRead.body.key,
      memberWrite: memberWrite.body.key,
      admin: adminKey.body.key,
    });
    const tenant = (await db.prisma.tenant.findFirstOrThrow()).id;
    const adminUser = users.body.find((u) => u.username === 'admin')!.id;
    const defaultNamespace = namespaces.body.find((n) => n.slug === 'default')!.id;
    own = { ...mine.ids, apiKey: memberWrite.body.id, user: v.body.id, namespace: defaultNamespace, tenant };
    other = { ...theirs.ids, apiKey: adminKey.body.id, user: adminUser, namespace: ns.body.id };

    const globex = await admin.post<{ admin: { id: string }; default_namespace: { id: string } }>(
      '/v1/tenants',
      {
        name: 'Globex',
        slug: 'globex',
        admin: { username: 'hank', password: 'hank-pass-1' },
      },
    );
    expect(globex.status).toBe(200);
    const hank = await anonymous.login('hank', 'hank-pass-1');
    const [globexFixtures, hankKey] = await Promise.all([
      createNamespaceFixtures(hank, {}, DOCUMENTED),
      hank.post<NewKey>('/api/keys', { name: 'hank', permissions: ['read', 'write'] }),
    ]);
    otherTenant = {
      ...globexFixtures.ids,
      apiKey: hankKey.body.id,
      user: globex.body.admin.id,
      namespace: globex.body.default_namespace.id,
    };
  }, 600_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  it('classifies every operation of docs/openapi.json, and can fill and send each one', () => {
    const gaps: string[] = [];
    for (const op of OPERATIONS) {
      const access = classify(op);
      if (!access) gaps.push(`${op.label}: no rule in route-catalog.ts classifies it`);
      const unfilled = access === 'public' ? null : unfillable(op.path, own);
      if (unfilled) gaps.push(`${op.label}: cannot fill the path: ${unfilled}`);
      const body = access === 'public' || access === 'worker' ? null : missingBody(op);
      if (body) gaps.push(`${op.label}: ${body}`);
    }
    expect(gaps, gaps.join('\n')).toEqual([]);
    expect(OPERATIONS.length).toBeGreaterThan(100);
  });

  it('answers 401 on every route without credentials, or with a forged token or an unknown key', async () => {
    const failures = await run([
      ...probes(GUARDED, 'nobody', {}, 401),
      ...probes(GUARDED, 'a forged token', bearer(FORGED_JWT), 401),
      ...probes(GUARDED, 'an unknown API key', apiKey('agk_not-a-real-key'), 401),
      ...probes(GUARDED, 'an unknown environment key', environmentKey('agentry_envkey_not-a-real-key'), 401),
      ...probes(withAccess('public'), 'nobody', {}, 'public'),
    ]);
    expect(failures, failures.join('\n')).toEqual([]);
  });

  it('answers 403 when a viewer or read-only key writes, a non-admin administers or a key acts for its user; nothing changes', async () => {
    const before = await snapshot();
    const failures = await run([
      ...probes(withAccess('write', 'admin'), 'a viewer', viewer.authHeaders, 403),
      ...probes(withAccess('admin'), 'a member', member.authHeaders, 403),
      ...probes(
        withAccess('write', 'admin', 'account'),
        "a member's read-only key",
        apiKey(keys.memberRead),
        403,
      ),
      ...probes(withAccess('admin', 'account'), "a member's read-write key", bearer(keys.memberWrite), 403),
      ...probes(withAccess('admin', 'account'), "an admin's key", apiKey(keys.admin), 403),
    ]);
    // A viewer may make keys, but only read ones.
    const writeKey = problemWith(
      await viewer.post('/api/keys', { name: 'escalate', permissions: ['read', 'write'] }),
      403,
    );
    if (writeKey) failures.push(`a viewer's write key: ${writeKey}`);
    expect(failures, failures.join('\n')).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it('answers 404 on every route addressing another namespace’s resource, and lists show none of them', async () => {
    const before = await snapshot();
    const scopedProbes = withAccess('read', 'write', 'account').flatMap((op): Probe[] => {
      const scoped = [...new Set([...scopedParams(op.path), ...bodyRefers(op)])];
      const probe = (ids: Fixtures, variant: string): Probe => ({
        op,
        who: 'a member',
        headers: member.authHeaders,
        ids,
        expect: 404,
        variant,
      });
      // All of the other namespace's, then each one alone among the member's own (a child under one's own parent).
      const mixed =
        scoped.length > 1
          ? scoped.map((key) => probe({ ...own, [key]: other[key] }, `only ${key} from elsewhere`))
          : [];
      return scoped.length === 0 ? [] : [probe({ ...own, ...other }, 'all from elsewhere'), ...mixed];
    });
    const failures = await run(scopedProbes);
    const foreign = (Object.entries(other) as [FixtureKey, string][])
      .filter(([key]) => isNamespaced(key))
      .map(([, id]) => id);
    const lists = withAccess('read', 'account').filter(
      (op) => op.method === 'GET' && scopedParams(op.path).length === 0 && !op.path.endsWith('/stream'),
    );
    await inBatches(lists, 8, async (op) => {
      const reply = await send(platform.gatewayUrl, 'GET', op.path, undefined, member.authHeaders);
      const leaked = foreign.filter((id) => JSON.stringify(reply.body).includes(id));
      if (leaked.length > 0)
        failures.push(`${op.label} as a member lists another namespace's ${leaked.join(', ')}`);
    });
    expect(failures, failures.join('\n')).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it("answers 404 on every route addressing another tenant's resource, even to an administrator; lists show none; nothing changes", async () => {
    // Tables the services write on their own (turns, heartbeats, usage) are left out of the comparison.
    const database = databaseSnapshot(db, [
      'sessions',
      'session_events',
      'usage_ledger',
      'workspace_files',
      'hands_workspace_files',
      'hands_workspace_chunks',
      'hands_workspace_fences',
      'work_items',
      'workers',
      'webhook_deliveries',
      'webhook_delivery_attempts',
    ]);
    const [before, rowsBefore] = await Promise.all([snapshot(), database()]);
    const probesOf = (who: string, headers: Record<string, string>, access: Access[]) =>
      withAccess(...access).flatMap((op): Probe[] => {
        const scoped = [...new Set([...scopedParams(op.path), ...bodyRefers(op)])];
        const probe = (ids: Fixtures, variant: string): Probe => ({
          op,
          who,
          headers,
          ids,
          expect: 404,
          variant,
        });
        const mixed =
          scoped.length > 1
            ? scoped.map((key) =>
                probe({ ...own, [key]: otherTenant[key] }, `only ${key} from another tenant`),
              )
            : [];
        return scoped.length === 0
          ? []
          : [probe({ ...own, ...otherTenant }, 'all from another tenant'), ...mixed];
      });
    const failures = await run([
      ...probesOf('a member', member.authHeaders, ['read', 'write', 'account']),
      ...probesOf('an administrator', admin.authHeaders, ['read', 'write', 'account', 'admin']),
    ]);
    const foreign = (Object.entries(otherTenant) as [FixtureKey, string][])
      .filter(([key]) => isNamespaced(key))
      .map(([, id]) => id);
    const lists = withAccess('read', 'account', 'admin').filter(
      (op) => op.method === 'GET' && scopedParams(op.path).length === 0 && !op.path.endsWith('/stream'),
    );
    await inBatches(lists, 8, async (op) => {
      const reply = await send(platform.gatewayUrl, 'GET', op.path, undefined, admin.authHeaders);
      const leaked = foreign.filter((id) => JSON.stringify(reply.body).includes(id));
      if (leaked.length > 0)
        failures.push(`${op.label} as an administrator lists another tenant's ${leaked.join(', ')}`);
    });
    expect(failures, failures.join('\n')).toEqual([]);
    expect(await snapshot()).toEqual(before);
    const rowsAfter = await database();
    expect(rowsAfter, snapshotDiff(rowsBefore, rowsAfter)).toBe(rowsBefore);
  }, 600_000);

  it("serves every read to the namespace's members, viewers and read-only keys (so the refusals above are about scope)", async () => {
    const reads = withAccess('read');
    const accountReads = withAccess('account').filter((op) => op.method === 'GET');
    const failures = await run([
      ...probes([...reads, ...accountReads], 'a member', member.authHeaders, 'ok'),
      ...probes([...reads, ...accountReads], 'a viewer', viewer.authHeaders, 'ok'),
      ...probes(reads, "a member's read-only key", apiKey(keys.memberRead), 'ok'),
    ]);
    expect(failures, failures.join('\n')).toEqual([]);
  });

  it("keeps workers to their own environment: another environment's key or a revoked one is refused", async () => {
    const revokable = await member.post<NewKey>(`/v1/environments/${own.environment}/keys`, {});
    expect(revokable.status).toBe(200);
    const revoked = await member.post<{ revoked_at: string | null }>(
      `/v1/environments/${own.environment}/keys/${revokable.body.id}/revoke`,
    );
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
    const failures = await run([
      ...probes(
        withAccess('worker'),
        "another environment's key",
        environmentKey(theirs.environmentKeySecret),
        'refused',
      ),
      ...probes(withAccess('worker'), 'a revoked environment key', environmentKey(revokable.body.key), 401),
    ]);
    // The environment's own key does open its queue, so the refusals are about whose key it is.
    if (DOCUMENTED.has('GET /v1/environments/{id}/work/poll')) {
      const path = `/v1/environments/${own.environment}/work/poll`;
      const poll = await send(
        platform.gatewayUrl,
        'GET',
        path,
        undefined,
        environmentKey(mine.environmentKeySecret),
      );
      if (poll.status !== 200 && poll.status !== 204)
        failures.push(`its own key polls: expected 200 or 204, got ${poll.status}`);
    }
    expect(failures, failures.join('\n')).toEqual([]);
  });

  it('selects a namespace with x-agentry-namespace: not a member or unknown → 404, a key bound elsewhere → 403', async () => {
    expect((await member.get(`/v1/agents/${other.agent}`, inB)).status).toBe(404);
    const memberId = (await admin.get<User[]>('/api/admin/users?limit=100')).body.find(
      (u) => u.username === 'member',
    )!.id;
    expect(
      (await admin.post(`/api/admin/namespaces/${other.namespace}/members`, { userId: memberId })).status,
    ).toBe(200);
    expect((await member.get(`/v1/agents/${other.agent}`, inB)).status).toBe(200);
    expect((await member.get(`/v1/agents/${own.agent}`, inB)).status).toBe(404);
    const unknown = await member.get<ErrorReply>('/v1/agents', { 'x-agentry-namespace': 'ns_nowhere' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toMatch(/x-agentry-namespace/);
    const asKey = anonymous.as({ apiKey: keys.memberWrite });
    expect((await asKey.get(`/v1/agents/${own.agent}`)).status).toBe(200);
    expect((await asKey.get('/v1/agents', inB)).status).toBe(403);
  });

  it('shows a key once, and answers 401 on every route right after it is revoked', async () => {
    const created = await member.post<NewKey>('/api/keys', {
      name: 'to-revoke',
      permissions: ['read', 'write'],
    });
    expect(created.status).toBe(200);
    expect(created.body.key).toMatch(/^agk_/);
    const listed = await member.get('/api/keys');
    expect(JSON.stringify(listed.body)).not.toContain(created.body.key);
    const asKey = anonymous.as({ apiKey: created.body.key });
    expect((await asKey.get(`/v1/agents/${own.agent}`)).status).toBe(200);
    const revoked = await member.request<{ revokedAt: string | null }>(
      'DELETE',
      `/api/keys/${created.body.id}`,
    );
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).toEqual(expect.any(String));
    const failures = await run([
      ...probes(GUARDED, 'a revoked key (x-api-key)', apiKey(created.body.key), 401),
      ...probes(GUARDED, 'a revoked key (bearer)', bearer(created.body.key), 401),
    ]);
    expect(failures, failures.join('\n')).toEqual([]);
  });

  it('disabling a user ends their token at once; a password change needs the current password', async () => {
    const temp = await admin.post<Created>('/api/admin/users', { username: 'temp', password: 'temp-pass-1' });
    const asTemp = await anonymous.login('temp', 'temp-pass-1');
    const wrong = await asTemp.post<ErrorReply>('/api/auth/password', {
      currentPassword: 'nope',
      newPassword: 'temp-pass-2',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toMatch(/currentPassword/);
    expect(
      (
        await asTemp.post('/api/auth/password', {
          currentPassword: 'temp-pass-1',
          newPassword: 'temp-pass-2',
        })
      ).status,
    ).toBe(200);
    expect(
      (await anonymous.post('/api/auth/login', { username: 'temp', password: 'temp-pass-1' })).status,
    ).toBe(401);
    expect(
      (await admin.request('PATCH', `/api/admin/users/${temp.body.id}`, { disabled: true })).status,
    ).toBe(200);
    expect((await asTemp.get('/v1/agents')).status).toBe(401);
    const audit = await admin.get<Array<{ action: string }>>(
      `/api/admin/audit-log?resourceType=user&resourceId=${temp.body.id}`,
    );
    expect(audit.body.map((e) => e.action)).toEqual(['update', 'change_password', 'create']);
  });

  it('replays a POST with the same Idempotency-Key and body, and refuses the key with another body', async () => {
    const count = async () => (await member.get<Page<Created>>('/v1/agents?limit=100')).body.data.length;
    const before = await count();
    const headers = { 'idempotency-key': 'create-once-1' };
    const first = await member.post('/v1/agents', { name: 'once', model: 'scripted' }, headers);
    const again = await member.post('/v1/agents', { model: 'scripted', name: 'once' }, headers);
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await count()).toBe(before + 1);

    const conflict = await member.post<ErrorReply>(
      '/v1/agents',
      { name: 'different', model: 'scripted' },
      headers,
    );
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
    // Another caller's use of the same key is a different request, never someone else's response.
    expect((await admin.post('/v1/agents', { name: 'once', model: 'scripted' }, headers)).status).toBe(409);
    expect(await count()).toBe(before + 1);

    // A failed request frees its key: the corrected retry runs.
    const bad = await member.post('/v1/agents', { name: 'fixme' }, { 'idempotency-key': 'retry-after-fix' });
    expect(bad.status).toBe(400);
    const fixed = await member.post(
      '/v1/agents',
      { name: 'fixme', model: 'scripted' },
      { 'idempotency-key': 'retry-after-fix' },
    );
    expect(fixed.status).toBe(200);
    expect(await count()).toBe(before + 2);
  });

  it('never runs concurrent duplicates twice: the others replay or are told the first is in progress', async () => {
    const count = async () => (await member.get<Page<Created>>('/v1/agents?limit=100')).body.data.length;
    const before = await count();
    const headers = { 'idempotency-key': 'concurrent-1' };
    const responses = await Promise.all(
      Array.from({ length: 5 }, () =>
        member.post<Partial<Created & ErrorReply>>(
          '/v1/agents',
          { name: 'racer', model: 'scripted' },
          headers,
        ),
      ),
    );
    const ok = responses.filter((r) => r.status === 200);
    const busy = responses.filter((r) => r.status === 409);
    expect(ok.length + busy.length).toBe(5);
    expect(new Set(ok.map((r) => r.body.id)).size).toBe(1);
    for (const r of busy) expect(r.body.error?.message).toMatch(/in progress/);
    expect(await count()).toBe(before + 1);
  });
});
