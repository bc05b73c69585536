import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, ControlSubjects as S, type Actor } from '@agentry/contracts';
import { startControl, type ControlTestApp } from './control-test-app.js';

describe('control: agents over NATS', () => {
  let control: ControlTestApp;
  beforeAll(async () => {
    // Anthropic is the one provider with a key: its models are served, other providers' are not.
    control = await startControl({ ANTHROPIC_API_KEY: 'sk-ant-test' });
  });
  afterAll(async () => {
    await control?.close();
  });

  it('creates an agent at version 1 with every toolset default filled in', async () => {
    const agent = await control.rpc.request(S.createAgent, {
      actor: control.admin,
      body: { name: 'coder', model: 'claude-sonnet-4-5', tools: [{ type: 'agent_toolset_20260401' }] },
    });
    expect(agent).toMatchObject({
      type: 'agent',
      version: 1,
      name: 'coder',
      model: { id: 'claude-sonnet-4-5' },
    });
    expect(agent.tools[0]).toMatchObject({
      default_config: { enabled: true, permission_policy: { type: 'always_allow' } },
    });
    const fetched = await control.rpc.request(S.getAgent, { actor: control.admin, id: agent.id, query: {} });
    expect(fetched).toEqual(agent);
  });

  it('refuses to create or update an agent on a model the installation cannot serve, naming the configured providers', async () => {
    const refused = (provider: string) => (e: unknown) =>
      AppError.is(e, 'INVALID_REQUEST') &&
      (e as Error).message.includes('Configured providers: scripted, anthropic.') &&
      (e as Error).message.includes(provider);
    await expect(
      control.rpc.request(S.createAgent, {
        actor: control.admin,
        body: { name: 'gpt', model: 'openai/gpt-4.1' },
      }),
    ).rejects.toSatisfy(refused('set OPENAI_API_KEY'));
    await expect(
      control.rpc.request(S.createAgent, { actor: control.admin, body: { name: 'bare', model: 'gpt-4.1' } }),
    ).rejects.toSatisfy(refused('provider/model'));
    const agent = await control.rpc.request(S.createAgent, {
      actor: control.admin,
      body: { name: 'served', model: { id: 'claude-haiku-4-5' } },
    });
    await expect(
      control.rpc.request(S.updateAgent, {
        actor: control.admin,
        id: agent.id,
        body: { version: 1, model: 'mystery/model-1' },
      }),
    ).rejects.toSatisfy(refused('unknown model provider "mystery"'));
    expect(
      await control.rpc.request(S.getAgent, { actor: control.admin, id: agent.id, query: {} }),
    ).toMatchObject({ version: 1 });
  });

  it('hides another namespace’s agent behind NOT_FOUND', async () => {
    const agent = await control.rpc.request(S.createAgent, {
      actor: control.admin,
      body: { name: 'private', model: 'scripted' },
    });
    const stranger: Actor = { ...control.admin, namespaceId: 'ns_someoneelse' };
    await expect(
      control.rpc.request(S.getAgent, { actor: stranger, id: agent.id, query: {} }),
    ).rejects.toSatisfy((e) => AppError.is(e, 'NOT_FOUND'));
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
    for (const name of ['p1', 'p2', 'p3'])
      await control.rpc.request(S.createAgent, { actor: control.admin, body: { name, model: 'scripted' } });
    const first = await control.rpc.request(S.listAgents, { actor: control.admin, query: { limit: 2 } });
    expect(first.data).toHaveLength(2);
    expect(first.next_page).toBeTruthy();
    const second = await control.rpc.request(S.listAgents, {
      actor: control.admin,
      query: { limit: 2, page: first.next_page },
    });
    const ids = [...first.data, ...second.data].map((a) => a.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
