import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AppError,
  ControlSubjects as A,
  ControlSubjects as S,
  ControlSubjects as T,
  type Actor,
  type ErrorCode,
} from '@agentry/contracts';
import { startControl, type ControlTestApp } from './control-test-app.js';

const failsWith = (code: ErrorCode, pattern?: RegExp) => (e: unknown) =>
  AppError.is(e, code) && (!pattern || pattern.test((e as Error).message));

describe('control: users, roles, API keys, namespaces, shares and the audit log', () => {
  let control: ControlTestApp;
  let member: Actor;
  let viewer: Actor;

  beforeAll(async () => {
    control = await startControl();
    const m = await control.rpc.request(A.createUser, {
      actor: control.admin,
      body: { username: 'Mia', password: 'member-pass-1', role: 'member' },
    });
    const v = await control.rpc.request(A.createUser, {
      actor: control.admin,
      body: { username: 'vic', password: 'viewer-pass-1', role: 'viewer' },
    });
    member = await control.rpc.request(A.resolveUser, { userId: m.id });
    viewer = await control.rpc.request(A.resolveUser, { userId: v.id });
  });
  afterAll(async () => {
    await control?.close();
  });

  it('creates users that can log in, lists them for admins only, and refuses a taken username', async () => {
    const login = await control.rpc.request(S.login, { username: 'MIA', password: 'member-pass-1' });
    expect(login).toMatchObject({ username: 'mia', role: 'member' });
    const page = await control.rpc.request(A.listUsers, { actor: control.admin, query: { limit: 100 } });
    expect(page.data.map((u) => u.username).sort()).toEqual(['admin', 'mia', 'vic']);
    expect(JSON.stringify(page)).not.toMatch(/scrypt/);
    await expect(control.rpc.request(A.listUsers, { actor: member, query: {} })).rejects.toSatisfy(
      failsWith('PERMISSION_DENIED'),
    );
    await expect(
      control.rpc.request(A.createUser, {
        actor: control.admin,
        body: { username: 'mia', password: 'another-pass' },
      }),
    ).rejects.toSatisfy(failsWith('ALREADY_EXISTS', /username/));
    await expect(
      control.rpc.request(A.createUser, {
        actor: member,
        body: { username: 'sneaky', password: 'sneaky-pass' },
      }),
    ).rejects.toSatisfy(failsWith('PERMISSION_DENIED'));
    const after = await control.rpc.request(A.listUsers, { actor: control.admin, query: { limit: 100 } });
    expect(after.data).toHaveLength(3);
  });

  it('applies role changes and disabling on the next resolve, and keeps an admin from locking themselves out', async () => {
    const temp = await control.rpc.request(A.createUser, {
      actor: control.admin,
      body: { username: 'temp', password: 'temp-pass-1' },
    });
    const promoted = await control.rpc.request(A.updateUser, {
      actor: control.admin,
      id: temp.id,
      body: { role: 'viewer' },
    });
    expect(promoted.role).toBe('viewer');
    expect((await control.rpc.request(A.resolveUser, { userId: temp.id })).role).toBe('viewer');
    await control.rpc.request(A.updateUser, { actor: control.admin, id: temp.id, body: { disabled: true } });
    await expect(control.rpc.request(A.resolveUser, { userId: temp.id })).rejects.toSatisfy(
      failsWith('UNAUTHENTICATED'),
    );
    await expect(
      control.rpc.request(S.login, { username: 'temp', password: 'temp-pass-1' }),
    ).rejects.toSatisfy(failsWith('UNAUTHENTICATED'));
    await expect(
      control.rpc.request(A.updateUser, {
        actor: control.admin,
        id: control.admin.userId!,
        body: { role: 'member' },
      }),
    ).rejects.toSatisfy(failsWith('INVALID_REQUEST', /own account/));
    await expect(
      control.rpc.request(A.updateUser, {
        actor: control.admin,
        id: 'user_nobody',
        body: { role: 'member' },
      }),
    ).rejects.toSatisfy(failsWith('NOT_FOUND'));
  });

  it('changes a password only when the current one matches', async () => {
    await expect(
      control.rpc.request(A.changePassword, {
        actor: member,
        body: { currentPassword: 'wrong', newPassword: 'member-pass-2' },
      }),
    ).rejects.toSatisfy(failsWith('INVALID_REQUEST', /currentPassword/));
    await control.rpc.request(S.login, { username: 'mia', password: 'member-pass-1' });
    await control.rpc.request(A.changePassword, {
      actor: member,
      body: { currentPassword: 'member-pass-1', newPassword: 'member-pass-2' },
    });
    await expect(
      control.rpc.request(S.login, { username: 'mia', password: 'member-pass-1' }),
    ).rejects.toSatisfy(failsWith('UNAUTHENTICATED'));
    expect(await control.rpc.request(S.login, { username: 'mia', password: 'member-pass-2' })).toMatchObject({
      username: 'mia',
    });
  });

  it('shows an API key once, stores only its hash, verifies it with its permissions, and revokes it', async () => {
    const created = await control.rpc.request(A.createApiKey, {
      actor: member,
      body: { name: 'ci', permissions: ['read', 'write'] },
    });
    expect(created.key).toMatch(/^agk_/);
    expect(created).toMatchObject({
      namespaceId: member.namespaceId,
      userId: member.userId,
      revokedAt: null,
    });
    const stored = await control.db.prisma.apiKey.findUniqueOrThrow({ where: { id: created.id } });
    expect(stored.keyHash).toBe(createHash('sha256').update(created.key).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(created.key);
    const listed = await control.rpc.request(A.listApiKeys, { actor: member, query: {} });
    expect(listed.data.map((k) => k.id)).toEqual([created.id]);
    expect(JSON.stringify(listed)).not.toContain(created.key);

    const asKey = await control.rpc.request(S.verifyApiKey, { key: created.key });
    expect(asKey).toMatchObject({ apiKeyId: created.id, role: 'member', namespaceId: member.namespaceId });
    const readOnly = await control.rpc.request(A.createApiKey, {
      actor: member,
      body: { name: 'ro', permissions: ['read'] },
    });
    expect((await control.rpc.request(S.verifyApiKey, { key: readOnly.key })).role).toBe('viewer');

    // Another member cannot see or revoke it; the owner can, and the key stops working at once.
    const other = await control.rpc.request(A.createUser, {
      actor: control.admin,
      body: { username: 'otto', password: 'otto-pass-1' },
    });
    const otto = await control.rpc.request(A.resolveUser, { userId: other.id });
    await expect(control.rpc.request(A.revokeApiKey, { actor: otto, id: created.id })).rejects.toSatisfy(
      failsWith('NOT_FOUND'),
    );
    // A key never outranks its owner: demoting the owner demotes the key, disabling the owner ends it.
    const ottoKey = await control.rpc.request(A.createApiKey, {
      actor: otto,
      body: { name: 'otto', permissions: ['write'] },
    });
    await control.rpc.request(A.updateUser, { actor: control.admin, id: other.id, body: { role: 'viewer' } });
    expect((await control.rpc.request(S.verifyApiKey, { key: ottoKey.key })).role).toBe('viewer');
    await control.rpc.request(A.updateUser, { actor: control.admin, id: other.id, body: { disabled: true } });
    await expect(control.rpc.request(S.verifyApiKey, { key: ottoKey.key })).rejects.toSatisfy(
      failsWith('UNAUTHENTICATED'),
    );
    const revoked = await control.rpc.request(A.revokeApiKey, { actor: member, id: created.id });
    expect(revoked.revokedAt).not.toBeNull();
    await expect(control.rpc.request(S.verifyApiKey, { key: created.key })).rejects.toSatisfy(
      failsWith('UNAUTHENTICATED'),
    );
    // A key cannot mint keys, and a viewer cannot mint write keys.
    await expect(
      control.rpc.request(A.createApiKey, { actor: asKey, body: { name: 'x', permissions: ['read'] } }),
    ).rejects.toSatisfy(failsWith('PERMISSION_DENIED'));
    await expect(
      control.rpc.request(A.createApiKey, { actor: viewer, body: { name: 'x', permissions: ['write'] } }),
    ).rejects.toSatisfy(failsWith('PERMISSION_DENIED', /permissions/));
  });

  it('picks a namespace by id, and refuses one of another tenant or that does not exist', async () => {
    const ns = await control.rpc.request(A.createNamespace, {
      actor: control.admin,
      body: { name: 'Team B', slug: 'team-b' },
    });
    await control.rpc.request(T.addMember, {
      actor: control.admin,
      id: ns.id,
      body: { userId: member.userId! },
    });
    const inB = await control.rpc.request(A.resolveUser, { userId: member.userId!, namespaceId: ns.id });
    expect(inB.namespaceId).toBe(ns.id);
    await expect(
      control.rpc.request(A.resolveUser, { userId: member.userId!, namespaceId: 'ns_nowhere' }),
    ).rejects.toSatisfy(failsWith('NOT_FOUND', /namespace/));
    await expect(
      control.rpc.request(A.createNamespace, { actor: control.admin, body: { name: 'dup', slug: 'team-b' } }),
    ).rejects.toSatisfy(failsWith('ALREADY_EXISTS', /slug/));
    const listed = await control.rpc.request(A.listNamespaces, { actor: member });
    expect(listed.data.map((n) => n.slug)).toEqual(['default', 'team-b']);
    // An agent made in team-b is not found from the default namespace.
    const agent = await control.rpc.request(S.createAgent, {
      actor: inB,
      body: { name: 'b-only', model: 'scripted' },
    });
    await expect(
      control.rpc.request(S.getAgent, { actor: member, id: agent.id, query: {} }),
    ).rejects.toSatisfy(failsWith('NOT_FOUND'));
  });

  it('shares an agent with RUN or EDIT and answers the access check accordingly', async () => {
    const ns = await control.rpc.request(A.createNamespace, {
      actor: control.admin,
      body: { name: 'Team C', slug: 'team-c' },
    });
    const adminInC = await control.rpc.request(A.resolveUser, {
      userId: control.admin.userId!,
      namespaceId: ns.id,
    });
    const agent = await control.rpc.request(S.createAgent, {
      actor: adminInC,
      body: { name: 'shared', model: 'scripted' },
    });
    expect(
      await control.rpc.request(A.checkAgentAccess, { actor: member, id: agent.id, permission: 'run' }),
    ).toEqual({ allowed: false, via: 'none' });
    await control.rpc.request(A.shareAgent, {
      actor: adminInC,
      id: agent.id,
      body: { granteeId: member.userId!, tier: 'RUN' },
    });
    expect(
      await control.rpc.request(A.checkAgentAccess, { actor: member, id: agent.id, permission: 'run' }),
    ).toEqual({ allowed: true, via: 'share' });
    expect(
      (await control.rpc.request(A.checkAgentAccess, { actor: member, id: agent.id, permission: 'edit' }))
        .allowed,
    ).toBe(false);
    await control.rpc.request(A.shareAgent, {
      actor: adminInC,
      id: agent.id,
      body: { granteeId: member.userId!, tier: 'EDIT' },
    });
    expect(
      (await control.rpc.request(A.checkAgentAccess, { actor: member, id: agent.id, permission: 'edit' }))
        .allowed,
    ).toBe(true);
    expect((await control.rpc.request(A.listAgentShares, { actor: adminInC, id: agent.id })).data).toEqual([
      expect.objectContaining({ granteeType: 'user', granteeId: member.userId, tier: 'EDIT' }),
    ]);
    // The grantee cannot re-share an agent outside their namespace.
    await expect(
      control.rpc.request(A.shareAgent, {
        actor: member,
        id: agent.id,
        body: { granteeId: viewer.userId!, tier: 'RUN' },
      }),
    ).rejects.toSatisfy(failsWith('NOT_FOUND'));
    expect(
      await control.rpc.request(A.unshareAgent, { actor: adminInC, id: agent.id, granteeId: member.userId! }),
    ).toEqual({ deleted: true });
    expect(
      (await control.rpc.request(A.checkAgentAccess, { actor: member, id: agent.id, permission: 'run' }))
        .allowed,
    ).toBe(false);
  });

  it('records mutations in an audit log that only admins may read, newest first, paged', async () => {
    const key = await control.rpc.request(A.createApiKey, {
      actor: member,
      body: { name: 'audited', permissions: ['read'] },
    });
    await control.rpc.request(A.revokeApiKey, { actor: member, id: key.id });
    const page = await control.rpc.request(A.listAuditLog, {
      actor: control.admin,
      query: { resourceType: 'api_key', resourceId: key.id },
    });
    expect(page.data.map((e) => e.action)).toEqual(['revoke', 'create']);
    expect(page.data[0]).toMatchObject({
      actorType: 'user',
      actorId: member.userId,
      namespaceId: member.namespaceId,
      resourceType: 'api_key',
    });
    const first = await control.rpc.request(A.listAuditLog, { actor: control.admin, query: { limit: 2 } });
    expect(first.data).toHaveLength(2);
    const second = await control.rpc.request(A.listAuditLog, {
      actor: control.admin,
      query: { limit: 2, page: first.next_page },
    });
    expect(second.data[0]!.id < first.data[1]!.id).toBe(true);
    await expect(control.rpc.request(A.listAuditLog, { actor: member, query: {} })).rejects.toSatisfy(
      failsWith('PERMISSION_DENIED'),
    );
  });
  it('records agent and environment mutations with who did them and in which namespace', async () => {
    const agent = await control.rpc.request(S.createAgent, {
      actor: member,
      body: { name: 'audited-agent', model: 'scripted' },
    });
    const env = await control.rpc.request(S.createEnvironment, {
      actor: member,
      body: { name: 'audited-env', config: { type: 'local' } },
    });
    const agentLog = await control.rpc.request(A.listAuditLog, {
      actor: control.admin,
      query: { resourceId: agent.id },
    });
    expect(agentLog.data).toEqual([
      expect.objectContaining({
        action: 'create',
        resourceType: 'agent',
        actorId: member.userId,
        namespaceId: member.namespaceId,
      }),
    ]);
    const envLog = await control.rpc.request(A.listAuditLog, {
      actor: control.admin,
      query: { resourceType: 'environment', resourceId: env.id },
    });
    expect(envLog.data.map((e) => e.action)).toEqual(['create']);
    // A refused write leaves no entry.
    await expect(
      control.rpc.request(S.createAgent, { actor: viewer, body: { name: 'nope', model: 'scripted' } }),
    ).rejects.toSatisfy(failsWith('PERMISSION_DENIED'));
    const all = await control.rpc.request(A.listAuditLog, {
      actor: control.admin,
      query: { resourceType: 'agent', limit: 100 },
    });
    expect(all.data.filter((e) => e.actorId === viewer.userId)).toEqual([]);
  });
});
