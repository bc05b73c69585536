import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  AppError,
  ControlSubjects as R,
  ControlSubjects as S,
  HandsSubjects,
  type Agent,
  type Session,
} from '@agentry/contracts';
import { NatsBus } from '@agentry/platform';
import { testNatsUrl } from '@agentry/testing';
import { startControl, type ControlTestApp } from './control-test-app.js';
import { unchecked } from './unchecked-subject.js';

describe('control: session definitions', () => {
  let control: ControlTestApp;
  let agent: Agent;
  let environmentId: string;
  beforeAll(async () => {
    control = await startControl({}, { dataplane: true });
    agent = await control.rpc.request(S.createAgent, {
      actor: control.admin,
      body: {
        name: 'pinned',
        model: 'scripted',
        system: 'v1 system',
        tools: [{ type: 'agent_toolset_20260401' }],
      },
    });
    await control.rpc.request(R.updateAgent, {
      actor: control.admin,
      id: agent.id,
      body: { version: 1, system: 'v2 system' },
    });
    const env = await control.rpc.request(S.createEnvironment, {
      actor: control.admin,
      body: { name: 'sessions', config: { type: 'local' } },
    });
    environmentId = env.id;
  });
  afterAll(async () => {
    await control?.close();
  });

  const open = (
    body: Partial<Parameters<typeof control.rpc.request<typeof S.createSession>>[1]['body']> = {},
  ): Promise<Session> =>
    control.rpc.request(S.createSession, {
      actor: control.admin,
      body: { agent: agent.id, environment_id: environmentId, ...body },
    });
  const setStatus = (id: string, status: 'running' | 'idle' | 'terminated') =>
    control.db.prisma.session.update({ where: { id }, data: { status } });

  it('pins the latest version by id, a given version, or a version with overrides', async () => {
    expect((await open()).agent).toMatchObject({ version: 2, system: 'v2 system' });
    const pinned = await open({ agent: { type: 'agent', id: agent.id, version: 1 } });
    expect(pinned.agent).toMatchObject({ id: agent.id, version: 1, system: 'v1 system' });
    const overridden = await open({
      agent: {
        type: 'agent_with_overrides',
        id: agent.id,
        version: 1,
        system: 'override',
        model: { id: 'scripted', speed: 'fast' },
        tools: [],
      },
    });
    expect(overridden.agent).toMatchObject({
      version: 1,
      system: 'override',
      model: { id: 'scripted', speed: 'fast' },
      tools: [],
    });
    const stored = await control.rpc.request(S.getSession, { actor: control.admin, id: overridden.id });
    expect(stored.agent.system).toBe('override');
    await expect(open({ agent: { type: 'agent', id: agent.id, version: 9 } })).rejects.toSatisfy(
      (e) => AppError.is(e, 'NOT_FOUND') && /version 9/.test((e as Error).message),
    );
    // An override may name only a model the installation serves (no provider key is configured here).
    await expect(
      open({ agent: { type: 'agent_with_overrides', id: agent.id, model: 'openai/gpt-4.1' } }),
    ).rejects.toSatisfy(
      (e) =>
        AppError.is(e, 'INVALID_REQUEST') &&
        /Configured providers: scripted\..*OPENAI_API_KEY/.test((e as Error).message),
    );
  });

  it('filters by agent version, status and archive state', async () => {
    const other = await control.rpc.request(S.createAgent, {
      actor: control.admin,
      body: { name: 'filtered', model: 'scripted' },
    });
    const idle = await open({ agent: other.id });
    const running = await open({ agent: other.id });
    const archived = await open({ agent: other.id });
    await setStatus(running.id, 'running');
    await control.rpc.request(R.archiveSession, { actor: control.admin, id: archived.id });
    const ids = async (query: Record<string, unknown>) =>
      (
        await control.rpc.request(R.listSessions, {
          actor: control.admin,
          query: { agent_id: other.id, ...query },
        })
      ).data.map((s) => s.id);
    expect(await ids({})).toEqual([running.id, idle.id]);
    expect(await ids({ statuses: ['running'] })).toEqual([running.id]);
    expect(await ids({ include_archived: true })).toEqual([archived.id, running.id, idle.id]);
    expect(await ids({ agent_version: 2 })).toEqual([]);
    expect(await ids({ order: 'asc' })).toEqual([idle.id, running.id]);
  });

  it('pages forwards with next_page and back with prev_page', async () => {
    const other = await control.rpc.request(S.createAgent, {
      actor: control.admin,
      body: { name: 'paged', model: 'scripted' },
    });
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await open({ agent: other.id })).id);
    const newestFirst = [...made].reverse();
    const list = (page?: string | null) =>
      control.rpc.request(R.listSessions, {
        actor: control.admin,
        query: { agent_id: other.id, limit: 2, page },
      });
    const p1 = await list();
    expect(p1.data.map((s) => s.id)).toEqual(newestFirst.slice(0, 2));
    expect(p1.prev_page).toBeNull();
    const p2 = await list(p1.next_page);
    expect(p2.data.map((s) => s.id)).toEqual(newestFirst.slice(2, 4));
    const p3 = await list(p2.next_page);
    expect(p3.data.map((s) => s.id)).toEqual(newestFirst.slice(4));
    expect(p3.next_page).toBeNull();
    const back2 = await list(p3.prev_page);
    expect(back2.data.map((s) => s.id)).toEqual(newestFirst.slice(2, 4));
    const back1 = await list(back2.prev_page);
    expect(back1.data.map((s) => s.id)).toEqual(newestFirst.slice(0, 2));
    expect(back1.prev_page).toBeNull();
    await expect(list('bm90LWEtY3Vyc29y')).rejects.toSatisfy(
      (e) => AppError.is(e, 'INVALID_REQUEST') && /page/.test((e as Error).message),
    );
  });

  const newVault = async (name: string) =>
    (await control.rpc.request(S.createVault, { actor: control.admin, body: { display_name: name } })).id;

  it('updates title, metadata, vaults and pinned tools without touching status', async () => {
    const session = await open({ title: 'first', metadata: { a: '1', b: '2' } });
    const vault = await newVault('one');
    await setStatus(session.id, 'terminated');
    const updated = await control.rpc.request(R.updateSession, {
      actor: control.admin,
      id: session.id,
      body: { title: 'second', metadata: { a: null, c: '3' }, vault_ids: [vault], agent: { tools: [] } },
    });
    expect(updated).toMatchObject({
      title: 'second',
      metadata: { b: '2', c: '3' },
      vault_ids: [vault],
      status: 'terminated',
    });
    expect(updated.agent.tools).toEqual([]);
    expect(updated.agent.system).toBe('v2 system');
  });

  it('refuses a vault that does not exist or is archived, at create and at update, and changes nothing', async () => {
    const kept = await newVault('kept');
    const archived = await newVault('archived');
    await control.rpc.request(S.archiveVault, { actor: control.admin, id: archived });
    const before = await control.db.prisma.session.count();
    await expect(open({ vault_ids: [kept, 'vlt_missing'] })).rejects.toSatisfy(
      (e) =>
        AppError.is(e, 'NOT_FOUND') &&
        /^vault_ids\.1: Vault vlt_missing not found/.test((e as Error).message),
    );
    await expect(open({ vault_ids: [archived] })).rejects.toSatisfy(
      (e) =>
        AppError.is(e, 'INVALID_REQUEST') && /^vault_ids\.0: vault .* is archived/.test((e as Error).message),
    );
    expect(await control.db.prisma.session.count()).toBe(before);
    const session = await open({ vault_ids: [kept] });
    for (const vault_ids of [['vlt_missing'], [archived]])
      await expect(
        control.rpc.request(R.updateSession, { actor: control.admin, id: session.id, body: { vault_ids } }),
      ).rejects.toSatisfy((e) => AppError.is(e, 'NOT_FOUND') || AppError.is(e, 'INVALID_REQUEST'));
    expect(
      (await control.rpc.request(R.getSession, { actor: control.admin, id: session.id })).vault_ids,
    ).toEqual([kept]);
  });

  it.each([
    ['a wrong type', { title: 5 }, /title/],
    ['an unknown field', { status: 'idle' }, /status/],
    ['an over-long title', { title: 't'.repeat(257) }, /title/],
    [
      'too many metadata keys',
      { metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])) },
      /metadata/,
    ],
  ])('refuses %s with INVALID_REQUEST and changes nothing', async (_label, body, field) => {
    const session = await open({ title: 'kept' });
    await expect(
      control.rpc.request(unchecked(R.updateSession), { actor: control.admin, id: session.id, body }),
    ).rejects.toSatisfy((e) => AppError.is(e, 'INVALID_REQUEST') && field.test((e as Error).message));
    expect(await control.rpc.request(S.getSession, { actor: control.admin, id: session.id })).toEqual(
      session,
    );
  });

  it('restores an archived session so it lists and accepts updates again', async () => {
    const session = await open({ title: 'to restore' });
    await control.rpc.request(R.archiveSession, { actor: control.admin, id: session.id });
    await expect(
      control.rpc.request(R.updateSession, { actor: control.admin, id: session.id, body: { title: 'x' } }),
    ).rejects.toSatisfy((e) => AppError.is(e, 'INVALID_REQUEST'));
    const restored = await control.rpc.request(R.restoreSession, { actor: control.admin, id: session.id });
    expect(restored.archived_at).toBeNull();
    const updated = await control.rpc.request(R.updateSession, {
      actor: control.admin,
      id: session.id,
      body: { title: 'back' },
    });
    expect(updated.title).toBe('back');
    const stranger = { ...control.admin, namespaceId: 'ns_elsewhere' };
    await expect(
      control.rpc.request(R.restoreSession, { actor: stranger, id: session.id }),
    ).rejects.toSatisfy((e) => AppError.is(e, 'NOT_FOUND'));
  });

  it('refuses to archive or delete a running session, then deletes it once idle', async () => {
    const session = await open();
    await setStatus(session.id, 'running');
    await expect(
      control.rpc.request(R.deleteSession, { actor: control.admin, id: session.id }),
    ).rejects.toSatisfy((e) => AppError.is(e, 'CONFLICT') && /running/.test((e as Error).message));
    await expect(
      control.rpc.request(R.archiveSession, { actor: control.admin, id: session.id }),
    ).rejects.toSatisfy((e) => AppError.is(e, 'CONFLICT'));
    expect(
      (await control.rpc.request(S.getSession, { actor: control.admin, id: session.id })).archived_at,
    ).toBeNull();
    await setStatus(session.id, 'idle');
    // The workers hear of it, to kill what they keep for the session elsewhere (its E2B sandbox).
    const bus = await NatsBus.connect(testNatsUrl(), control.prefix, 'ended');
    const ended: unknown[] = [];
    bus.subscribe(HandsSubjects.sessionEnded, (message) => ended.push(message));
    await bus.flush();
    expect(await control.rpc.request(R.deleteSession, { actor: control.admin, id: session.id })).toEqual({
      id: session.id,
      type: 'session_deleted',
    });
    await vi.waitFor(() =>
      expect(ended).toEqual([{ v: 1, tenantId: control.admin.tenantId, sessionId: session.id }]),
    );
    await bus.close();
    await expect(
      control.rpc.request(S.getSession, { actor: control.admin, id: session.id }),
    ).rejects.toSatisfy((e) => AppError.is(e, 'NOT_FOUND'));
  });

  it('refuses to delete an idle session whose input waits for a turn, deleting nothing, then deletes it once processed', async () => {
    const session = await open();
    const { prisma } = control.db;
    const input = await prisma.sessionEvent.create({
      data: {
        id: `evt_pending_${session.id}`,
        tenantId: control.admin.tenantId,
        sessionId: session.id,
        seq: 1n,
        type: 'user.message',
        payload: {},
      },
    });
    await expect(
      control.rpc.request(R.deleteSession, { actor: control.admin, id: session.id }),
    ).rejects.toSatisfy(
      (e) => AppError.is(e, 'CONFLICT') && /input waiting for a turn/.test((e as Error).message),
    );
    expect(await prisma.sessionEvent.count({ where: { sessionId: session.id } })).toBe(1);
    expect((await control.rpc.request(S.getSession, { actor: control.admin, id: session.id })).status).toBe(
      'idle',
    );

    await prisma.sessionEvent.update({ where: { id: input.id }, data: { processedAt: new Date() } });
    await control.rpc.request(R.deleteSession, { actor: control.admin, id: session.id });
    expect(await prisma.sessionEvent.count({ where: { sessionId: session.id } })).toBe(0);
  });
});
