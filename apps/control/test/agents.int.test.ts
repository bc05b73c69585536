import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, ControlSubjects as S, type Actor } from '@agentry/contracts';
import { startControl, type ControlTestApp } from './control-test-app.js';

describe('control: agents over NATS', () => {
  let control: ControlTestApp;
  beforeAll(async () => {
    control = await startControl();
  });
  afterAll(async () => {
    await control?.close();
  });

  it('creates an agent at version 1 with every toolset default filled in', async () => {
    const agent = await control.rpc.request(S.createAgent, {
      actor: control.admin,
      body: { name: 'coder', model: 'claude-sonnet-4-5', tools: [{ type: 'agent_toolset_20260401' }] },
    });
    expect(agent).toMatchObject({ type: 'agent', version: 1, name: 'coder', model: { id: 'claude-sonnet-4-5' } });
    expect(agent.tools[0]).toMatchObject({ default_config: { enabled: true, permission_policy: { type: 'always_allow' } } });
    const fetched = await control.rpc.request(S.getAgent, { actor: control.admin, id: agent.id, query: {} });
    expect(fetched).toEqual(agent);
  });

  it('hides another namespace’s agent behind NOT_FOUND', async () => {
    const agent = await control.rpc.request(S.createAgent, { actor: control.admin, body: { name: 'private', model: 'scripted' } });
    const stranger: Actor = { ...control.admin, namespaceId: 'ns_someoneelse' };
    await expect(control.rpc.request(S.getAgent, { actor: stranger, id: agent.id, query: {} })).rejects.toSatisfy(
      (e) => AppError.is(e, 'NOT_FOUND'),
    );
  });

  it('refuses an MCP toolset naming an undeclared server, and writes nothing', async () => {
    const before = await control.rpc.request(S.listAgents, { actor: control.admin, query: { limit: 100 } });
    await expect(
      control.rpc.request(S.createAgent, {
        actor: control.admin,
        body: { name: 'bad', model: 'scripted', tools: [{ type: 'mcp_toolset', mcp_server_name: 'ghost' }] },
      }),
    ).rejects.toSatisfy((e) => AppError.is(e, 'INVALID_REQUEST') && /ghost/.test((e as Error).message));
    const after = await control.rpc.request(S.listAgents, { actor: control.admin, query: { limit: 100 } });
    expect(after.data.length).toBe(before.data.length);
  });

  it('pages agents with an opaque cursor', async () => {
    for (const name of ['p1', 'p2', 'p3']) await control.rpc.request(S.createAgent, { actor: control.admin, body: { name, model: 'scripted' } });
    const first = await control.rpc.request(S.listAgents, { actor: control.admin, query: { limit: 2 } });
    expect(first.data).toHaveLength(2);
    expect(first.next_page).toBeTruthy();
    const second = await control.rpc.request(S.listAgents, { actor: control.admin, query: { limit: 2, page: first.next_page } });
    const ids = [...first.data, ...second.data].map((a) => a.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
