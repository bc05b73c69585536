import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AppError,
  ControlSubjects as A,
  ControlSubjects as R,
  ControlSubjects as S,
  ControlSubjects as T,
  type Actor,
  type Agent,
  type ErrorCode,
} from '@agentry/contracts';
import { startControl, type ControlTestApp } from './control-test-app.js';

const failsWith = (code: ErrorCode, pattern?: RegExp) => (e: unknown) =>
  AppError.is(e, code) && (!pattern || pattern.test((e as Error).message));

/** Olga owns an agent in namespace "owners"; Gus works only in the default namespace. */
describe('control: agent shares are enforced on reads, sessions and updates', () => {
  let control: ControlTestApp;
  let olga: Actor;
  let gus: Actor;
  let agent: Agent;
  let gusEnvironment: string;

  const openSession = (actor: Actor) =>
    control.rpc.request(S.createSession, {
      actor,
      body: { agent: agent.id, environment_id: gusEnvironment },
    });
  const share = (tier: 'RUN' | 'EDIT') =>
    control.rpc.request(A.shareAgent, { actor: olga, id: agent.id, body: { granteeId: gus.userId!, tier } });

  beforeAll(async () => {
    control = await startControl({}, { dataplane: true });
    const owners = await control.rpc.request(A.createNamespace, {
      actor: control.admin,
      body: { name: 'Owners', slug: 'owners' },
    });
    const o = await control.rpc.request(A.createUser, {
      actor: control.admin,
      body: { username: 'olga', password: 'olga-pass-1', namespaceId: owners.id },
    });
    const g = await control.rpc.request(A.createUser, {
      actor: control.admin,
      body: { username: 'gus', password: 'gus-pass-12' },
    });
    olga = await control.rpc.request(A.resolveUser, { userId: o.id });
    gus = await control.rpc.request(A.resolveUser, { userId: g.id });
    agent = await control.rpc.request(S.createAgent, {
      actor: olga,
      body: { name: 'owned', model: 'scripted', system: 'v1' },
    });
    const env = await control.rpc.request(S.createEnvironment, {
      actor: gus,
      body: { name: 'gus-env', config: { type: 'local' } },
    });
    gusEnvironment = env.id;
  });
  afterAll(async () => {
    await control?.close();
  });

  it('hides an agent that is not shared: 404 on read, session and update', async () => {
    await expect(control.rpc.request(S.getAgent, { actor: gus, id: agent.id, query: {} })).rejects.toSatisfy(
      failsWith('NOT_FOUND'),
    );
    await expect(openSession(gus)).rejects.toSatisfy(failsWith('NOT_FOUND', /Agent/));
    await expect(
      control.rpc.request(R.updateAgent, { actor: gus, id: agent.id, body: { system: 'x' } }),
    ).rejects.toSatisfy(failsWith('NOT_FOUND'));
  });

  it('RUN: the grantee reads the agent and opens sessions on it in their own namespace, but cannot change it', async () => {
    await share('RUN');
    expect(await control.rpc.request(S.getAgent, { actor: gus, id: agent.id, query: {} })).toMatchObject({
      id: agent.id,
      version: 1,
      system: 'v1',
    });
    const session = await openSession(gus);
    expect(session.agent).toMatchObject({ id: agent.id, version: 1, system: 'v1' });
    expect((await control.rpc.request(S.getSession, { actor: gus, id: session.id })).id).toBe(session.id);
    // The session lives in the grantee's namespace, not the owner's.
    await expect(control.rpc.request(S.getSession, { actor: olga, id: session.id })).rejects.toSatisfy(
      failsWith('NOT_FOUND'),
    );

    await expect(
      control.rpc.request(R.updateAgent, {
        actor: gus,
        id: agent.id,
        body: { version: 1, system: 'hijacked' },
      }),
    ).rejects.toSatisfy(failsWith('PERMISSION_DENIED', /EDIT/));
    await expect(control.rpc.request(R.archiveAgent, { actor: gus, id: agent.id })).rejects.toSatisfy(
      failsWith('PERMISSION_DENIED'),
    );
    expect(await control.rpc.request(S.getAgent, { actor: olga, id: agent.id, query: {} })).toMatchObject({
      version: 1,
      system: 'v1',
      archived_at: null,
    });

    // A share is to the user, not to a role: in a namespace where they only read, they cannot open sessions.
    const readers = await control.rpc.request(A.createNamespace, {
      actor: control.admin,
      body: { name: 'Readers', slug: 'readers' },
    });
    await control.rpc.request(T.addMember, {
      actor: control.admin,
      id: readers.id,
      body: { userId: gus.userId!, role: 'viewer' },
    });
    const gusReading = await control.rpc.request(A.resolveUser, {
      userId: gus.userId!,
      namespaceId: readers.id,
    });
    expect((await control.rpc.request(S.getAgent, { actor: gusReading, id: agent.id, query: {} })).id).toBe(
      agent.id,
    );
    await expect(openSession(gusReading)).rejects.toSatisfy(failsWith('PERMISSION_DENIED'));
  });

  it('EDIT: the grantee updates the agent, with the same optimistic version check', async () => {
    await share('EDIT');
    const updated = await control.rpc.request(R.updateAgent, {
      actor: gus,
      id: agent.id,
      body: { version: 1, system: 'v2 by gus' },
    });
    expect(updated).toMatchObject({ version: 2, system: 'v2 by gus' });
    expect(await control.rpc.request(S.getAgent, { actor: olga, id: agent.id, query: {} })).toMatchObject({
      version: 2,
      system: 'v2 by gus',
    });
    await expect(
      control.rpc.request(R.updateAgent, { actor: gus, id: agent.id, body: { version: 1, system: 'stale' } }),
    ).rejects.toSatisfy(failsWith('VERSION_CONFLICT'));
    // Still not theirs to archive or to pass on.
    await expect(control.rpc.request(R.archiveAgent, { actor: gus, id: agent.id })).rejects.toSatisfy(
      failsWith('PERMISSION_DENIED'),
    );
    await expect(
      control.rpc.request(A.shareAgent, {
        actor: gus,
        id: agent.id,
        body: { granteeId: gus.userId!, tier: 'EDIT' },
      }),
    ).rejects.toSatisfy(failsWith('NOT_FOUND'));
    const audit = await control.rpc.request(A.listAuditLog, {
      actor: control.admin,
      query: { resourceType: 'agent', resourceId: agent.id },
    });
    expect(audit.data[0]).toMatchObject({ action: 'update', actorId: gus.userId });
  });

  it('revoking the share ends access on the very next request', async () => {
    expect(
      await control.rpc.request(A.unshareAgent, { actor: olga, id: agent.id, granteeId: gus.userId! }),
    ).toEqual({ deleted: true });
    await expect(control.rpc.request(S.getAgent, { actor: gus, id: agent.id, query: {} })).rejects.toSatisfy(
      failsWith('NOT_FOUND'),
    );
    await expect(openSession(gus)).rejects.toSatisfy(failsWith('NOT_FOUND'));
    await expect(
      control.rpc.request(R.updateAgent, { actor: gus, id: agent.id, body: { system: 'late' } }),
    ).rejects.toSatisfy(failsWith('NOT_FOUND'));
    await expect(
      control.rpc.request(R.listAgentVersions, { actor: gus, id: agent.id, query: { limit: 10 } }),
    ).rejects.toSatisfy(failsWith('NOT_FOUND'));
    expect(
      await control.rpc.request(A.checkAgentAccess, { actor: gus, id: agent.id, permission: 'run' }),
    ).toEqual({ allowed: false, via: 'none' });
    expect((await control.rpc.request(S.getAgent, { actor: olga, id: agent.id, query: {} })).system).toBe(
      'v2 by gus',
    );
  });
});
