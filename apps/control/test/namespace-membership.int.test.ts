import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AppError,
  ControlSubjects as A,
  ControlSubjects as S,
  ControlSubjects as T,
  type Actor,
  type ErrorCode,
  type NamespaceInfo,
} from '@agentry/contracts';
import { startControl, type ControlTestApp } from './control-test-app.js';
import { unchecked } from './unchecked-subject.js';

const failsWith = (code: ErrorCode, pattern?: RegExp) => (e: unknown) =>
  AppError.is(e, code) && (!pattern || pattern.test((e as Error).message));

describe('control: namespace membership', () => {
  let control: ControlTestApp;
  let teamA: NamespaceInfo;
  let teamB: NamespaceInfo;
  const as = (userId: string, namespaceId?: string): Promise<Actor> =>
    control.rpc.request(A.resolveUser, { userId, namespaceId });
  const agentsIn = async (namespaceId: string) =>
    (
      await control.rpc.request(S.listAgents, {
        actor: await as(control.admin.userId!, namespaceId),
        query: { limit: 100 },
      })
    ).data.length;

  beforeAll(async () => {
    control = await startControl();
    teamA = await control.rpc.request(A.createNamespace, {
      actor: control.admin,
      body: { name: 'Team A', slug: 'team-a' },
    });
    teamB = await control.rpc.request(A.createNamespace, {
      actor: control.admin,
      body: { name: 'Team B', slug: 'team-b' },
    });
  });
  afterAll(async () => {
    await control?.close();
  });

  it('lets a user pick only the namespaces they belong to: any other is 404, like one that does not exist', async () => {
    const nina = await control.rpc.request(A.createUser, {
      actor: control.admin,
      body: { username: 'nina', password: 'nina-pass-1', namespaceId: teamB.id },
    });
    // The default namespace is the first membership, at login and on every request naming none.
    expect(
      (await control.rpc.request(S.login, { username: 'nina', password: 'nina-pass-1' })).namespaceId,
    ).toBe(teamB.id);
    expect(await as(nina.id)).toMatchObject({ namespaceId: teamB.id, role: 'member' });
    const notMine = await as(nina.id, teamA.id).catch((e: unknown) => e);
    const nowhere = await as(nina.id, 'ns_nowhere').catch((e: unknown) => e);
    expect(notMine).toSatisfy(failsWith('NOT_FOUND', /x-agentry-namespace/));
    expect((notMine as Error).message.replace(teamA.id, 'X')).toBe(
      (nowhere as Error).message.replace('ns_nowhere', 'X'),
    );

    // Listing shows only one's own namespaces; administrators see all of them.
    const ninaActor = await as(nina.id);
    expect((await control.rpc.request(A.listNamespaces, { actor: ninaActor })).data).toEqual([
      expect.objectContaining({ id: teamB.id, slug: 'team-b', role: 'member' }),
    ]);
    const all = await control.rpc.request(A.listNamespaces, { actor: control.admin });
    expect(all.data.map((n) => [n.slug, n.role])).toEqual([
      ['default', 'admin'],
      ['team-a', 'admin'],
      ['team-b', 'admin'],
    ]);

    // Without a namespace in the body the user joins the creator's current one; an unknown one changes nothing.
    const plain = await control.rpc.request(A.createUser, {
      actor: control.admin,
      body: { username: 'plain', password: 'plain-pass-1' },
    });
    expect((await as(plain.id)).namespaceId).toBe(control.admin.namespaceId);
    await expect(
      control.rpc.request(A.createUser, {
        actor: control.admin,
        body: { username: 'lost', password: 'lost-pass-1', namespaceId: 'ns_nowhere' },
      }),
    ).rejects.toSatisfy(failsWith('NOT_FOUND', /namespaceId/));
    await expect(
      control.rpc.request(S.login, { username: 'lost', password: 'lost-pass-1' }),
    ).rejects.toSatisfy(failsWith('UNAUTHENTICATED'));
  });

  it('takes the role of the namespace: a viewer in A and member in B is refused writing in A and writes in B', async () => {
    const vera = await control.rpc.request(A.createUser, {
      actor: control.admin,
      body: { username: 'vera', password: 'vera-pass-1', namespaceId: teamA.id },
    });
    const demoted = await control.rpc.request(T.updateMember, {
      actor: control.admin,
      id: teamA.id,
      userId: vera.id,
      body: { role: 'viewer' },
    });
    expect(demoted).toMatchObject({ role: 'viewer', effectiveRole: 'viewer', username: 'vera' });
    await control.rpc.request(T.addMember, {
      actor: control.admin,
      id: teamB.id,
      body: { userId: vera.id, role: 'member' },
    });

    const inA = await as(vera.id, teamA.id);
    const inB = await as(vera.id, teamB.id);
    expect([inA.role, inB.role]).toEqual(['viewer', 'member']);
    const before = await agentsIn(teamA.id);
    await expect(
      control.rpc.request(S.createAgent, { actor: inA, body: { name: 'nope', model: 'scripted' } }),
    ).rejects.toSatisfy(failsWith('PERMISSION_DENIED'));
    expect(await agentsIn(teamA.id)).toBe(before);
    const made = await control.rpc.request(S.createAgent, {
      actor: inB,
      body: { name: 'in-b', model: 'scripted' },
    });
    expect((await control.rpc.request(S.getAgent, { actor: inB, id: made.id, query: {} })).name).toBe('in-b');

    // A tenant-wide viewer reads everywhere, whatever the member role says.
    await control.rpc.request(A.updateUser, { actor: control.admin, id: vera.id, body: { role: 'viewer' } });
    expect((await as(vera.id, teamB.id)).role).toBe('viewer');
    const members = await control.rpc.request(T.listMembers, {
      actor: control.admin,
      id: teamB.id,
      query: {},
    });
    expect(members.data.find((m) => m.userId === vera.id)).toMatchObject({
      role: 'member',
      effectiveRole: 'viewer',
    });
  });

  it('ends access and the API keys of a removed member for that namespace, and audits every change', async () => {
    const remy = await control.rpc.request(A.createUser, {
      actor: control.admin,
      body: { username: 'remy', password: 'remy-pass-1', namespaceId: teamA.id },
    });
    await control.rpc.request(T.addMember, { actor: control.admin, id: teamB.id, body: { userId: remy.id } });
    const keyA = await control.rpc.request(A.createApiKey, {
      actor: await as(remy.id, teamA.id),
      body: { name: 'a', permissions: ['read', 'write'] },
    });
    const keyB = await control.rpc.request(A.createApiKey, {
      actor: await as(remy.id, teamB.id),
      body: { name: 'b', permissions: ['read', 'write'] },
    });
    expect((await control.rpc.request(S.verifyApiKey, { key: keyA.key })).namespaceId).toBe(teamA.id);

    expect(
      await control.rpc.request(T.removeMember, { actor: control.admin, id: teamA.id, userId: remy.id }),
    ).toEqual({
      removed: true,
      revokedApiKeys: 1,
    });
    await expect(as(remy.id, teamA.id)).rejects.toSatisfy(failsWith('NOT_FOUND'));
    await expect(control.rpc.request(S.verifyApiKey, { key: keyA.key })).rejects.toSatisfy(
      failsWith('UNAUTHENTICATED'),
    );
    expect((await control.rpc.request(S.verifyApiKey, { key: keyB.key })).namespaceId).toBe(teamB.id);
    // Coming back does not revive the old key.
    await control.rpc.request(T.addMember, { actor: control.admin, id: teamA.id, body: { userId: remy.id } });
    await expect(control.rpc.request(S.verifyApiKey, { key: keyA.key })).rejects.toSatisfy(
      failsWith('UNAUTHENTICATED'),
    );

    const audit = await control.rpc.request(A.listAuditLog, {
      actor: control.admin,
      query: { resourceType: 'namespace', resourceId: teamA.id },
    });
    expect(audit.data.map((e) => [e.action, e.details.userId])).toEqual(
      expect.arrayContaining([
        ['add_member', remy.id],
        ['remove_member', remy.id],
      ]),
    );
    expect(audit.data.find((e) => e.action === 'remove_member')?.details).toMatchObject({
      revokedApiKeys: 1,
    });
  });

  it('stops the key of an administrator demoted out of a namespace they only reached as administrator', async () => {
    const ada = await control.rpc.request(A.createUser, {
      actor: control.admin,
      body: { username: 'ada', password: 'ada-pass-1', role: 'admin' },
    });
    const adaInA = await as(ada.id, teamA.id);
    expect(adaInA.role).toBe('admin');
    const key = await control.rpc.request(A.createApiKey, {
      actor: adaInA,
      body: { name: 'ops', permissions: ['read', 'write'] },
    });
    expect((await control.rpc.request(S.verifyApiKey, { key: key.key })).role).toBe('member');
    await control.rpc.request(A.updateUser, { actor: control.admin, id: ada.id, body: { role: 'member' } });
    await expect(control.rpc.request(S.verifyApiKey, { key: key.key })).rejects.toSatisfy(
      failsWith('UNAUTHENTICATED'),
    );
    // Still a member where she was put when created.
    expect(await as(ada.id)).toMatchObject({ namespaceId: control.admin.namespaceId, role: 'member' });
  });

  it('lets only tenant administrators manage members, and refuses bad requests without changing anything', async () => {
    const mo = await control.rpc.request(A.createUser, {
      actor: control.admin,
      body: { username: 'mo', password: 'mo-pass-12' },
    });
    const moActor = await as(mo.id);
    await expect(
      control.rpc.request(T.addMember, { actor: moActor, id: teamA.id, body: { userId: mo.id } }),
    ).rejects.toSatisfy(failsWith('PERMISSION_DENIED'));
    await expect(
      control.rpc.request(T.listMembers, { actor: moActor, id: teamA.id, query: {} }),
    ).rejects.toSatisfy(failsWith('PERMISSION_DENIED'));
    await expect(
      control.rpc.request(unchecked(T.addMember), {
        v: 1,
        actor: control.admin,
        id: teamA.id,
        body: { userId: mo.id, role: 'admin' },
      }),
    ).rejects.toSatisfy(failsWith('INVALID_REQUEST', /role/));
    await expect(
      control.rpc.request(unchecked(T.addMember), {
        v: 1,
        actor: control.admin,
        id: teamA.id,
        body: { userId: mo.id, extra: 1 },
      }),
    ).rejects.toSatisfy(failsWith('INVALID_REQUEST'));
    await expect(
      control.rpc.request(T.addMember, {
        actor: control.admin,
        id: teamA.id,
        body: { userId: 'user_nobody' },
      }),
    ).rejects.toSatisfy(failsWith('NOT_FOUND', /userId/));
    await expect(
      control.rpc.request(T.addMember, { actor: control.admin, id: 'ns_nowhere', body: { userId: mo.id } }),
    ).rejects.toSatisfy(failsWith('NOT_FOUND', /Namespace/));
    await expect(
      control.rpc.request(T.addMember, {
        actor: control.admin,
        id: control.admin.namespaceId,
        body: { userId: mo.id },
      }),
    ).rejects.toSatisfy(failsWith('ALREADY_EXISTS', /already a member/));
    await expect(
      control.rpc.request(T.removeMember, { actor: control.admin, id: teamA.id, userId: mo.id }),
    ).rejects.toSatisfy(failsWith('NOT_FOUND', /not a member/));
    await expect(as(mo.id, teamA.id)).rejects.toSatisfy(failsWith('NOT_FOUND'));
  });

  it('makes the creator of a namespace a member of it, so a demotion leaves them in it', async () => {
    const boss = await control.rpc.request(A.createUser, {
      actor: control.admin,
      body: { username: 'boss', password: 'boss-pass-1', role: 'admin' },
    });
    const created = await control.rpc.request(A.createNamespace, {
      actor: await as(boss.id),
      body: { name: 'Boss', slug: 'boss' },
    });
    expect(created.role).toBe('admin');
    await control.rpc.request(A.updateUser, { actor: control.admin, id: boss.id, body: { role: 'member' } });
    const slugs = (await control.rpc.request(A.listNamespaces, { actor: await as(boss.id) })).data.map(
      (n) => n.slug,
    );
    expect(slugs).toEqual(['default', 'boss']);
    expect((await as(boss.id, created.id)).role).toBe('member');
  });
});
