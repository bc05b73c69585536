import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, ControlSubjects as S, type Agent } from '@agentry/contracts';
import { startControl, type ControlTestApp } from './control-test-app.js';
import { unchecked } from './unchecked-subject.js';

describe('control: agent updates, versions and archive', () => {
  let control: ControlTestApp;
  beforeAll(async () => {
    control = await startControl();
  });
  afterAll(async () => {
    await control?.close();
  });

  const create = (name: string): Promise<Agent> =>
    control.rpc.request(S.createAgent, {
      actor: control.admin,
      body: {
        name,
        model: 'scripted',
        system: 'be brief',
        description: 'first',
        metadata: { team: 'a', keep: 'yes' },
      },
    });
  const versionCount = async (agentId: string) =>
    control.db.prisma.agentVersion.count({ where: { agentId } });

  it('keeps omitted fields, clears nulls, patches metadata and bumps the version', async () => {
    const agent = await create('updatable');
    const updated = await control.rpc.request(S.updateAgent, {
      actor: control.admin,
      id: agent.id,
      body: { version: 1, system: null, name: 'renamed', metadata: { team: 'b', keep: null, added: 'x' } },
    });
    expect(updated).toMatchObject({
      version: 2,
      name: 'renamed',
      system: null,
      description: 'first',
      model: { id: 'scripted' },
    });
    expect(updated.metadata).toEqual({ team: 'b', added: 'x' });
    const v1 = await control.rpc.request(S.getAgent, {
      actor: control.admin,
      id: agent.id,
      query: { version: 1 },
    });
    expect(v1).toMatchObject({
      version: 1,
      name: 'updatable',
      system: 'be brief',
      metadata: { team: 'a', keep: 'yes' },
    });
    const head = await control.rpc.request(S.getAgent, { actor: control.admin, id: agent.id, query: {} });
    expect(head.version).toBe(2);
  });

  it('makes no new version when the update changes nothing', async () => {
    const agent = await create('steady');
    const same = await control.rpc.request(S.updateAgent, {
      actor: control.admin,
      id: agent.id,
      body: { version: 1, name: 'steady', system: 'be brief', model: 'scripted', metadata: { team: 'a' } },
    });
    expect(same.version).toBe(1);
    expect(same.updated_at).toBe(agent.updated_at);
    expect(await versionCount(agent.id)).toBe(1);
  });

  it('refuses a stale version with VERSION_CONFLICT and writes nothing', async () => {
    const agent = await create('contended');
    await control.rpc.request(S.updateAgent, {
      actor: control.admin,
      id: agent.id,
      body: { version: 1, system: 'v2' },
    });
    await expect(
      control.rpc.request(S.updateAgent, {
        actor: control.admin,
        id: agent.id,
        body: { version: 1, system: 'stale' },
      }),
    ).rejects.toSatisfy((e) => AppError.is(e, 'VERSION_CONFLICT') && /version 2/.test((e as Error).message));
    const head = await control.rpc.request(S.getAgent, { actor: control.admin, id: agent.id, query: {} });
    expect(head).toMatchObject({ version: 2, system: 'v2' });
    expect(await versionCount(agent.id)).toBe(2);
  });

  it('lets exactly one of many concurrent updates from the same version win', async () => {
    const agent = await create('raced');
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) =>
        control.rpc.request(S.updateAgent, {
          actor: control.admin,
          id: agent.id,
          body: { version: 1, system: `writer ${i}` },
        }),
      ),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(5);
    for (const r of lost) expect(AppError.is(r.reason, 'VERSION_CONFLICT')).toBe(true);
    expect(await versionCount(agent.id)).toBe(2);
    const head = await control.rpc.request(S.getAgent, { actor: control.admin, id: agent.id, query: {} });
    expect(head.system).toBe((won[0] as PromiseFulfilledResult<Agent>).value.system);
  });

  it.each([
    ['a wrong type', { version: 1, name: 42 }, /name/],
    ['an unknown field', { version: 1, colour: 'red' }, /colour/],
    ['an over-long name', { version: 1, name: 'n'.repeat(257) }, /name/],
    [
      'an MCP server no toolset uses',
      { version: 1, mcp_servers: [{ type: 'url', name: 'gh', url: 'https://example.com/mcp' }] },
      /gh/,
    ],
  ])('refuses %s with INVALID_REQUEST and changes nothing', async (_label, body, field) => {
    const agent = await create('guarded');
    await expect(
      control.rpc.request(unchecked(S.updateAgent), { actor: control.admin, id: agent.id, body }),
    ).rejects.toSatisfy((e) => AppError.is(e, 'INVALID_REQUEST') && field.test((e as Error).message));
    expect(await control.rpc.request(S.getAgent, { actor: control.admin, id: agent.id, query: {} })).toEqual(
      agent,
    );
    expect(await versionCount(agent.id)).toBe(1);
  });

  it('pages versions newest first and archives out of the default list', async () => {
    const agent = await create('versioned');
    for (const system of ['two', 'three']) {
      await control.rpc.request(S.updateAgent, { actor: control.admin, id: agent.id, body: { system } });
    }
    const first = await control.rpc.request(S.listAgentVersions, {
      actor: control.admin,
      id: agent.id,
      query: { limit: 2 },
    });
    expect(first.data.map((a) => a.version)).toEqual([3, 2]);
    const second = await control.rpc.request(S.listAgentVersions, {
      actor: control.admin,
      id: agent.id,
      query: { limit: 2, page: first.next_page },
    });
    expect(second.data.map((a) => [a.version, a.system])).toEqual([[1, 'be brief']]);
    expect(second.next_page).toBeNull();

    const archived = await control.rpc.request(S.archiveAgent, { actor: control.admin, id: agent.id });
    expect(archived.archived_at).not.toBeNull();
    const listed = await control.rpc.request(S.listAgents, { actor: control.admin, query: { limit: 1000 } });
    expect(listed.data.map((a) => a.id)).not.toContain(agent.id);
    const all = await control.rpc.request(S.listAgents, {
      actor: control.admin,
      query: { limit: 1000, include_archived: true },
    });
    expect(all.data.map((a) => a.id)).toContain(agent.id);
    await expect(
      control.rpc.request(S.updateAgent, { actor: control.admin, id: agent.id, body: { system: 'late' } }),
    ).rejects.toSatisfy((e) => AppError.is(e, 'INVALID_REQUEST') && /archived/.test((e as Error).message));
  });
});
