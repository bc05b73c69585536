import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  pollUntil,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';

type Event = { id: string; type: string } & Record<string, unknown>;

const SCRIPT = {
  turns: [
    {
      match: 'remember',
      reply: [
        {
          toolCall: {
            name: 'memory_write',
            input: { store: 'Team Notes', path: '/people/ana.md', content: 'Ana drinks tea.\n' },
          },
        },
        {
          toolCall: {
            name: 'memory_append',
            input: { path: 'people/ana.md', content: 'Ana reads at night.\n' },
          },
        },
        { toolCall: { name: 'memory_search', input: { query: 'TEA' } } },
        { toolCall: { name: 'memory_read', input: { path: '/people/ana.md' } } },
        {
          toolCall: { name: 'memory_write', input: { store: 'Company Facts', path: '/x.md', content: 'no' } },
        },
        'Remembered.',
      ],
    },
    {
      match: 'which tools',
      reply: [
        { toolCall: { name: 'memory_write', input: { path: '/x.md', content: 'no' } } },
        'TOOLS: {{tools}}',
      ],
    },
  ],
};

const textOf = (event: Event | undefined): string =>
  ((event?.content as Array<{ type: string; text?: string }> | undefined) ?? [])
    .map((b) => b.text ?? '')
    .join('');

describe('memory_toolset_20261030 over the session memory stores', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let client: Anthropic;
  let agentId: string;
  let environmentId: string;

  const events = async (sessionId: string): Promise<Event[]> => {
    const all: Event[] = [];
    for await (const event of client.beta.sessions.events.list(sessionId, { limit: 1000 }))
      all.push(event as unknown as Event);
    return all;
  };
  const say = async (sessionId: string, text: string): Promise<Event[]> => {
    await client.beta.sessions.events.send(sessionId, {
      events: [{ type: 'user.message', content: [{ type: 'text', text }] }],
    });
    return pollUntil(`an idle session ${sessionId}`, async () => {
      const all = await events(sessionId);
      return all.some((e) => e.type === 'session.status_idle') ? all : undefined;
    });
  };
  /** Each tool call of the session with its result, in order. */
  const calls = (all: Event[]) =>
    all
      .filter((e) => e.type === 'agent.tool_use')
      .map((use) => {
        const result = all.find((e) => e.type === 'agent.tool_result' && e.tool_use_id === use.id);
        return { name: use.name, isError: result?.is_error, text: textOf(result) };
      });

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({ databaseUrl: db.url });
    const login = await new ApiClient(platform.gatewayUrl).post<{ token: string }>('/api/auth/login', {
      username: 'admin',
      password: 'admin',
    });
    client = new Anthropic({
      baseURL: platform.gatewayUrl,
      authToken: login.body.token,
      apiKey: null,
      maxRetries: 0,
    });
    const agent = await client.beta.agents.create({
      name: 'rememberer',
      model: { id: 'scripted', script: SCRIPT } as never,
      tools: [{ type: 'memory_toolset_20261030' }] as never,
    });
    agentId = agent.id;
    // The stored agent says what applies: every tool enabled, run without asking.
    expect(agent.tools).toEqual([
      {
        type: 'memory_toolset_20261030',
        default_config: { enabled: true, permission_policy: { type: 'always_allow' } },
        configs: [],
      },
    ]);
    const env = await client.beta.environments.create({ name: 'memory env', config: { type: 'cloud' } });
    environmentId = env.id;
  });

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  it('with a read_write store the model writes, appends, searches and reads a memory, saved as versions of the session', async () => {
    const notes = await client.beta.memoryStores.create({ name: 'Team Notes' });
    const facts = await client.beta.memoryStores.create({ name: 'Company Facts' });
    await client.beta.memoryStores.memories.create(facts.id, {
      path: '/founded.md',
      content: 'Founded in 2019.\n',
    });
    const session = await client.beta.sessions.create({
      agent: agentId,
      environment_id: environmentId,
      resources: [
        { type: 'memory_store', memory_store_id: notes.id, access: 'read_write' },
        { type: 'memory_store', memory_store_id: facts.id, access: 'read_only' },
      ],
    });
    const all = await say(session.id, 'remember what Ana likes');
    expect(all.filter((e) => e.type === 'agent.tool_use').map((e) => e.evaluated_permission)).toEqual(
      Array(5).fill('allow'),
    );
    const [write, append, search, read, refused] = calls(all);
    expect(write).toEqual({
      name: 'memory_write',
      isError: false,
      text: 'Created Team Notes:/people/ana.md.',
    });
    expect(append).toMatchObject({ name: 'memory_append', isError: false });
    expect(search).toEqual({
      name: 'memory_search',
      isError: false,
      text: 'Team Notes:/people/ana.md:1: Ana drinks tea.',
    });
    expect(read).toEqual({
      name: 'memory_read',
      isError: false,
      text: 'Ana drinks tea.\nAna reads at night.\n',
    });
    expect(refused).toMatchObject({ name: 'memory_write', isError: true });
    expect(refused!.text).toContain('"Company Facts" is read-only');

    const saved: Array<{ id: string; path: string }> = [];
    for await (const item of client.beta.memoryStores.memories.list(notes.id))
      if (item.type === 'memory') saved.push(item);
    expect(saved.map((m) => m.path)).toEqual(['/people/ana.md']);
    const memory = await client.beta.memoryStores.memories.retrieve(saved[0]!.id, {
      memory_store_id: notes.id,
    });
    expect(memory.content).toBe('Ana drinks tea.\nAna reads at night.\n');
    const versions = [];
    for await (const version of client.beta.memoryStores.memoryVersions.list(notes.id))
      versions.push(version);
    expect(versions.map((v) => [v.operation, (v.created_by as { session_id?: string }).session_id])).toEqual([
      ['modified', session.id],
      ['created', session.id],
    ]);
    const untouched = [];
    for await (const m of client.beta.memoryStores.memories.list(facts.id)) untouched.push(m.path);
    expect(untouched).toEqual(['/founded.md']);
  });

  it('with only read_only stores the write tools are not offered', async () => {
    const facts = await client.beta.memoryStores.create({ name: 'Read Only Facts' });
    const session = await client.beta.sessions.create({
      agent: agentId,
      environment_id: environmentId,
      resources: [{ type: 'memory_store', memory_store_id: facts.id, access: 'read_only' }],
    });
    const all = await say(session.id, 'which tools do you have?');
    const noSuchTool: unknown = expect.stringContaining('No tool named memory_write');
    expect(calls(all)).toEqual([{ name: 'memory_write', isError: true, text: noSuchTool }]);
    const offered = textOf(all.filter((e) => e.type === 'agent.message').at(-1));
    expect(offered).toBe('TOOLS: memory_list, memory_read, memory_search');
  });
});
