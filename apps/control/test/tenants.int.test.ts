import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AppError,
  ControlSubjects as A,
  ControlSubjects as S,
  ControlSubjects as T,
  type Actor,
  type CreatedTenant,
  type ErrorCode,
} from '@agentry/contracts';
import { startControl, type ControlTestApp } from './control-test-app.js';
import { unchecked } from './unchecked-subject.js';

const failsWith = (code: ErrorCode, pattern?: RegExp) => (e: unknown) =>
  AppError.is(e, code) && (!pattern || pattern.test((e as Error).message));

describe('control: tenants', () => {
  let control: ControlTestApp;
  let acme: CreatedTenant;
  let acmeAdmin: Actor;
  let member: Actor;

  const tenantSlugs = async () =>
    (await control.rpc.request(T.listTenants, { actor: control.admin, query: { limit: 100 } })).data.map(
      (t) => t.slug,
    );

  beforeAll(async () => {
    control = await startControl({}, { dataplane: true });
    const m = await control.rpc.request(A.createUser, {
      actor: control.admin,
      body: { username: 'mia', password: 'member-pass-1' },
    });
    member = await control.rpc.request(A.resolveUser, { userId: m.id });
    acme = await control.rpc.request(T.createTenant, {
      actor: control.admin,
      body: { name: 'Acme', slug: 'acme', admin: { username: 'Acme-Boss', password: 'acme-pass-1' } },
    });
    const login = await control.rpc.request(S.login, { username: 'acme-boss', password: 'acme-pass-1' });
    acmeAdmin = await control.rpc.request(A.resolveUser, { userId: login.id });
  });
  afterAll(async () => {
    await control?.close();
  });

  it('creates a tenant with a default namespace and a first administrator who can sign in to it', async () => {
    expect(acme).toMatchObject({
      slug: 'acme',
      name: 'Acme',
      namespace: { slug: 'default', role: 'admin' },
      admin: { username: 'acme-boss', role: 'admin', disabled: false },
    });
    expect(acmeAdmin).toMatchObject({ tenantId: acme.id, namespaceId: acme.namespace.id, role: 'admin' });
    const members = await control.rpc.request(T.listMembers, {
      actor: acmeAdmin,
      id: acme.namespace.id,
      query: {},
    });
    expect(members.data).toEqual([
      expect.objectContaining({ userId: acme.admin.id, effectiveRole: 'admin' }),
    ]);
    expect(JSON.stringify(acme)).not.toMatch(/acme-pass-1|scrypt/);
    expect(await tenantSlugs()).toEqual(['default', 'acme']);
  });

  it('lets only administrators of the bootstrap tenant create or list tenants, and refuses bad requests', async () => {
    const body = { name: 'Evil', slug: 'evil', admin: { username: 'evil', password: 'evil-pass-1' } };
    const key = await control.rpc.request(A.createApiKey, {
      actor: control.admin,
      body: { name: 'k', permissions: ['read', 'write'] },
    });
    const asKey = await control.rpc.request(S.verifyApiKey, { key: key.key });
    for (const actor of [member, acmeAdmin, asKey]) {
      await expect(control.rpc.request(T.createTenant, { actor, body })).rejects.toSatisfy(
        failsWith('PERMISSION_DENIED'),
      );
      await expect(control.rpc.request(T.listTenants, { actor, query: {} })).rejects.toSatisfy(
        failsWith('PERMISSION_DENIED'),
      );
    }
    await expect(
      control.rpc.request(T.createTenant, { actor: control.admin, body: { ...body, slug: 'acme' } }),
    ).rejects.toSatisfy(failsWith('ALREADY_EXISTS', /slug/));
    await expect(
      control.rpc.request(unchecked(T.createTenant), {
        v: 1,
        actor: control.admin,
        body: { name: 'x', slug: 'Bad Slug', admin: body.admin },
      }),
    ).rejects.toSatisfy(failsWith('INVALID_REQUEST', /slug/));
    await expect(
      control.rpc.request(unchecked(T.createTenant), {
        v: 1,
        actor: control.admin,
        body: { name: 'x', slug: 'x' },
      }),
    ).rejects.toSatisfy(failsWith('INVALID_REQUEST', /admin/));
    await expect(
      control.rpc.request(S.login, { username: 'evil', password: 'evil-pass-1' }),
    ).rejects.toSatisfy(failsWith('UNAUTHENTICATED'));
    expect(await tenantSlugs()).toEqual(['default', 'acme']);
  });

  it('isolates tenants: nothing of one is found, listed or shareable from the other', async () => {
    const agent = await control.rpc.request(S.createAgent, {
      actor: control.admin,
      body: { name: 'home-agent', model: 'scripted' },
    });
    const env = await control.rpc.request(S.createEnvironment, {
      actor: control.admin,
      body: { name: 'home-env', config: { type: 'local' } },
    });
    const session = await control.rpc.request(S.createSession, {
      actor: control.admin,
      body: { agent: agent.id, environment_id: env.id },
    });
    const acmeAgent = await control.rpc.request(S.createAgent, {
      actor: acmeAdmin,
      body: { name: 'acme-agent', model: 'scripted' },
    });
    const acmeEnv = await control.rpc.request(S.createEnvironment, {
      actor: acmeAdmin,
      body: { name: 'acme-env', config: { type: 'local' } },
    });

    await expect(
      control.rpc.request(S.getAgent, { actor: acmeAdmin, id: agent.id, query: {} }),
    ).rejects.toSatisfy(failsWith('NOT_FOUND'));
    await expect(control.rpc.request(S.getEnvironment, { actor: acmeAdmin, id: env.id })).rejects.toSatisfy(
      failsWith('NOT_FOUND'),
    );
    await expect(control.rpc.request(S.getSession, { actor: acmeAdmin, id: session.id })).rejects.toSatisfy(
      failsWith('NOT_FOUND'),
    );
    await expect(
      control.rpc.request(S.createSession, {
        actor: acmeAdmin,
        body: { agent: agent.id, environment_id: acmeEnv.id },
      }),
    ).rejects.toSatisfy(failsWith('NOT_FOUND'));
    await expect(
      control.rpc.request(S.getAgent, { actor: control.admin, id: acmeAgent.id, query: {} }),
    ).rejects.toSatisfy(failsWith('NOT_FOUND'));
    await expect(
      control.rpc.request(A.resolveUser, {
        userId: acmeAdmin.userId!,
        namespaceId: control.admin.namespaceId,
      }),
    ).rejects.toSatisfy(failsWith('NOT_FOUND', /x-agentry-namespace/));

    // No sharing across tenants, in either direction, and no members from elsewhere.
    await expect(
      control.rpc.request(A.shareAgent, {
        actor: acmeAdmin,
        id: acmeAgent.id,
        body: { granteeId: member.userId!, tier: 'RUN' },
      }),
    ).rejects.toSatisfy(failsWith('NOT_FOUND', /granteeId/));
    await expect(
      control.rpc.request(A.shareAgent, {
        actor: control.admin,
        id: agent.id,
        body: { granteeId: acmeAdmin.userId!, tier: 'RUN' },
      }),
    ).rejects.toSatisfy(failsWith('NOT_FOUND', /granteeId/));
    await expect(
      control.rpc.request(T.addMember, {
        actor: acmeAdmin,
        id: acme.namespace.id,
        body: { userId: member.userId! },
      }),
    ).rejects.toSatisfy(failsWith('NOT_FOUND', /userId/));
    await expect(
      control.rpc.request(T.listMembers, { actor: acmeAdmin, id: control.admin.namespaceId, query: {} }),
    ).rejects.toSatisfy(failsWith('NOT_FOUND'));

    const users = await control.rpc.request(A.listUsers, { actor: acmeAdmin, query: { limit: 100 } });
    expect(users.data.map((u) => u.username)).toEqual(['acme-boss']);
    const namespaces = await control.rpc.request(A.listNamespaces, { actor: acmeAdmin });
    expect(namespaces.data.map((n) => n.id)).toEqual([acme.namespace.id]);
    const agents = await control.rpc.request(S.listAgents, { actor: acmeAdmin, query: { limit: 100 } });
    expect(agents.data.map((a) => a.name)).toEqual(['acme-agent']);
    const audit = await control.rpc.request(A.listAuditLog, { actor: acmeAdmin, query: { limit: 100 } });
    expect(audit.data.every((e) => e.resourceId !== agent.id && e.resourceId !== acme.id)).toBe(true);
  });

  it('keeps usernames unique per tenant: a name taken elsewhere is free here, and login picks the tenant', async () => {
    const acmeMia = await control.rpc.request(A.createUser, {
      actor: acmeAdmin,
      body: { username: 'MIA', password: 'acme-mia-pass' },
    });
    expect(acmeMia).toMatchObject({ username: 'mia' });
    expect(acmeMia.id).not.toBe(member.userId);
    await expect(
      control.rpc.request(A.createUser, {
        actor: acmeAdmin,
        body: { username: 'mia', password: 'yet-another-1' },
      }),
    ).rejects.toSatisfy(failsWith('ALREADY_EXISTS', /username: "mia" is already taken/));
    await control.rpc.request(A.createUser, {
      actor: control.admin,
      body: { username: 'acme-boss', password: 'home-boss-pass' },
    });
    const beta = await control.rpc.request(T.createTenant, {
      actor: control.admin,
      body: { name: 'Beta', slug: 'beta', admin: { username: 'mia', password: 'beta-mia-pass' } },
    });

    // Without a tenant the password tells the users of one name apart, revealing nothing of the others.
    expect(await control.rpc.request(S.login, { username: 'mia', password: 'member-pass-1' })).toMatchObject({
      id: member.userId,
    });
    expect(await control.rpc.request(S.login, { username: 'mia', password: 'acme-mia-pass' })).toMatchObject({
      id: acmeMia.id,
      tenantId: acme.id,
    });
    expect(await control.rpc.request(S.login, { username: 'Mia', password: 'beta-mia-pass' })).toMatchObject({
      id: beta.admin.id,
      tenantId: beta.id,
    });
    await expect(control.rpc.request(S.login, { username: 'mia', password: 'wrong-pass' })).rejects.toSatisfy(
      failsWith('UNAUTHENTICATED'),
    );
    // With a tenant (slug or id), only that tenant's user can sign in.
    expect(
      await control.rpc.request(S.login, { username: 'mia', password: 'acme-mia-pass', tenant: 'acme' }),
    ).toMatchObject({ id: acmeMia.id });
    expect(
      await control.rpc.request(S.login, { username: 'mia', password: 'acme-mia-pass', tenant: acme.id }),
    ).toMatchObject({ id: acmeMia.id });
    await expect(
      control.rpc.request(S.login, { username: 'mia', password: 'member-pass-1', tenant: 'acme' }),
    ).rejects.toSatisfy(failsWith('UNAUTHENTICATED'));
    await expect(
      control.rpc.request(S.login, { username: 'mia', password: 'acme-mia-pass', tenant: 'no-such-tenant' }),
    ).rejects.toSatisfy(failsWith('UNAUTHENTICATED'));

    // One password opening accounts in two tenants is ambiguous without a tenant: refused, naming the fix.
    await control.rpc.request(A.createUser, {
      actor: control.admin,
      body: { username: 'sam', password: 'shared-pass-1' },
    });
    const acmeSam = await control.rpc.request(A.createUser, {
      actor: acmeAdmin,
      body: { username: 'sam', password: 'shared-pass-1' },
    });
    await expect(
      control.rpc.request(S.login, { username: 'sam', password: 'shared-pass-1' }),
    ).rejects.toSatisfy(failsWith('INVALID_REQUEST', /several tenants; name the tenant/));
    expect(
      await control.rpc.request(S.login, { username: 'sam', password: 'shared-pass-1', tenant: 'acme' }),
    ).toMatchObject({ id: acmeSam.id });

    const acmeUsers = await control.rpc.request(A.listUsers, { actor: acmeAdmin, query: { limit: 100 } });
    expect(acmeUsers.data.map((u) => u.username).sort()).toEqual(['acme-boss', 'mia', 'sam']);
  });
});
