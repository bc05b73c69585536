import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  FakeOpenAiServer,
  launchPlatform,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import { completeTurn } from './outage-fixture.js';

interface ContentBlock {
  type?: string;
  text?: string;
}

interface Event {
  type: string;
  is_error?: boolean;
  content?: ContentBlock[];
}

const SKILL_MD =
  '---\nname: csv-report\ndescription: Formats CSV reports\n---\nRead reference/columns.md before writing a report.\n';
const COLUMNS_MD = '# Columns\n\nregion, revenue, margin (in that order)\n';

const textOf = (event: Event): string =>
  (event.content ?? []).map((block) => (block.type === 'text' ? block.text : '')).join('');

/**
 * What the Brain owns is readable with the session's own file tools: the agent's files, its `/v1`
 * skills and the session's evicted outputs and plans appear read-only under /mnt, in every environment type.
 */
describe('session mounts: the Brain-owned files under /mnt', () => {
  let db: TestDatabase;
  let model: FakeOpenAiServer;
  let platform: RunningPlatform;
  let api: ApiClient;
  let client: Anthropic;

  beforeAll(async () => {
    db = await createTestDatabase();
    model = await FakeOpenAiServer.start();
    platform = await launchPlatform({
      databaseUrl: db.url,
      // A bash output of ~230 KB reaches the Brain whole, so it is the Brain's eviction that shortens it.
      env: {
        OPENAI_BASE_URL: model.baseUrl,
        OPENAI_API_KEY: 'sk-fake',
        AGENTRY_SANDBOX_OUTPUT_BYTES: String(512 * 1024),
      },
      readyTimeoutMs: 400_000,
    });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    client = new Anthropic({
      baseURL: platform.gatewayUrl,
      authToken: api.authHeaders.authorization!.slice('Bearer '.length),
      apiKey: null,
      maxRetries: 0,
    });
  }, 600_000);

  afterAll(async () => {
    await platform?.stop();
    await model?.close();
    await db?.drop();
  });

  async function environment(type: string): Promise<string> {
    const created = await client.beta.environments.create({
      name: `mounts-${type}-${Math.random().toString(36).slice(2, 8)}`,
      config: { type } as never,
    });
    return created.id;
  }

  async function toolResults(sessionId: string): Promise<Array<{ isError: boolean; text: string }>> {
    const events = (await api.get<{ data: Event[] }>(`/v1/sessions/${sessionId}/events?limit=1000`)).body
      .data;
    return events
      .filter((e) => e.type === 'agent.tool_result')
      .map((e) => ({ isError: e.is_error === true, text: textOf(e) }));
  }

  it('loads an attached /v1 skill on demand and reads its resource file with read, in local and remote sessions', async () => {
    const skill = await client.beta.skills.create({
      files: [
        new File([SKILL_MD], 'csv-report/SKILL.md', { type: 'text/markdown' }),
        new File([COLUMNS_MD], 'csv-report/reference/columns.md', { type: 'text/markdown' }),
      ],
    });
    const script = {
      turns: [
        {
          reply: [
            {
              toolCall: {
                name: 'load_skill_through_path',
                input: { skillId: 'csv-report', path: 'SKILL.md' },
              },
            },
            {
              toolCall: { name: 'read', input: { file_path: '/mnt/skills/csv-report/reference/columns.md' } },
            },
            {
              toolCall: {
                name: 'write',
                input: { file_path: '/mnt/skills/csv-report/SKILL.md', content: 'overwritten' },
              },
            },
            'done',
          ],
        },
      ],
    };
    const agent = await client.beta.agents.create({
      name: 'reporter',
      model: { id: 'scripted', script } as never,
      tools: [{ type: 'agent_toolset_20260401' }],
      skills: [{ type: 'custom', skill_id: skill.id }],
    });
    for (const type of ['local', 'remote']) {
      const session = await client.beta.sessions.create({
        agent: agent.id,
        environment_id: await environment(type),
      });
      await completeTurn(api, session.id, 'write the report', 90_000);
      const [loaded, read, write] = await toolResults(session.id);
      const mentionsColumns: unknown = expect.stringContaining(
        'Read reference/columns.md before writing a report.',
      );
      expect(loaded, type).toMatchObject({ isError: false, text: mentionsColumns });
      expect(read, type).toEqual({ isError: false, text: COLUMNS_MD });
      // The skill is the agent's, not the session's: the session cannot change it.
      expect(write!.isError, `${type}: ${write!.text}`).toBe(true);
    }
  });

  it('evicts a ~230 KB bash output and the model gets it back by following the pointer with read', async () => {
    model.reset();
    let pointer = '';
    model.enqueue(
      { toolCalls: [{ name: 'bash', arguments: { command: 'seq 1 40000' } }] },
      (body) => {
        const result = [...(body.messages ?? [])].reverse().find((m) => m.role === 'tool');
        const text =
          typeof result?.content === 'string'
            ? result.content
            : (result?.content ?? []).map((c) => c.text ?? '').join('');
        pointer = /use read with path "([^"]+)"/.exec(text)?.[1] ?? '';
        return { toolCalls: [{ name: 'read', arguments: { file_path: pointer } }] };
      },
      { text: 'read it all' },
    );
    const agent = await client.beta.agents.create({
      name: 'counter',
      model: { id: 'openai/gpt-4.1' },
      tools: [{ type: 'agent_toolset_20260401' }],
    });
    const session = await client.beta.sessions.create({
      agent: agent.id,
      environment_id: await environment('cloud'),
    });
    await completeTurn(api, session.id, 'count', 90_000);
    const [evicted, read] = await toolResults(session.id);
    expect(evicted!.isError).toBe(false);
    expect(evicted!.text.length).toBeLessThan(10_000);
    expect(pointer).toMatch(/^\/mnt\/tool_results\/[^/]+\.txt$/);
    const full = Array.from({ length: 40000 }, (_, i) => String(i + 1)).join('\n');
    expect(read!.isError, read!.text.slice(0, 300)).toBe(false);
    expect(read!.text.trim()).toBe(full);

    // Evicted outputs are the session's own: another session of the same agent cannot follow the pointer.
    model.reset();
    model.enqueue({ toolCalls: [{ name: 'read', arguments: { file_path: pointer } }] }, { text: 'tried' });
    const other = await client.beta.sessions.create({
      agent: agent.id,
      environment_id: await environment('cloud'),
    });
    await completeTurn(api, other.id, 'peek', 90_000);
    const [peek] = await toolResults(other.id);
    expect(peek!.isError, peek!.text.slice(0, 300)).toBe(true);
    expect(peek!.text).toBe(`read: ${pointer} does not exist`);
  });

  it("shows /api writes to the agent's files to the next turn of a running session, and keeps plans per session", async () => {
    const script = {
      turns: [
        {
          match: '^knowledge$',
          reply: [
            { toolCall: { name: 'read', input: { file_path: '/mnt/agent/knowledge/pricing.md' } } },
            'done',
          ],
        },
        {
          match: '^plan (\\w+)$',
          reply: [{ toolCall: { name: 'plan_write', input: { content: 'PLACEHOLDER' } } }, 'done'],
        },
        {
          match: '^show plan$',
          reply: [{ toolCall: { name: 'read', input: { file_path: '/mnt/plans/PLAN.md' } } }, 'done'],
        },
      ],
    };
    const agent = await api.post<{ id: string }>('/v1/agents', {
      name: 'planner',
      model: { id: 'scripted', script },
      tools: [{ type: 'agent_toolset_20260401' }],
    });
    expect(agent.status).toBe(200);
    const local = await environment('local');
    const [first, second] = await Promise.all(
      [0, 1].map(
        async () => (await client.beta.sessions.create({ agent: agent.body.id, environment_id: local })).id,
      ),
    );

    await completeTurn(api, first!, 'knowledge', 90_000);
    expect((await toolResults(first!))[0]!.isError).toBe(true);
    const put = await api.request('PUT', `/api/agents/${agent.body.id}/workspace/file`, {
      path: 'knowledge/pricing.md',
      content: 'Gold costs 42.',
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    await completeTurn(api, first!, 'knowledge', 90_000);
    expect((await toolResults(first!))[1]).toEqual({ isError: false, text: 'Gold costs 42.' });

    await completeTurn(api, first!, 'plan first', 90_000);
    expect((await toolResults(first!))[2]).toEqual({
      isError: false,
      text: 'Plan saved to /mnt/plans/PLAN.md',
    });
    await completeTurn(api, first!, 'show plan', 90_000);
    expect((await toolResults(first!))[3]).toEqual({ isError: false, text: 'PLACEHOLDER' });
    // The other session of the same agent has no plan until it writes its own.
    await completeTurn(api, second!, 'show plan', 90_000);
    expect((await toolResults(second!))[0]!.isError).toBe(true);
    const shared = await api.get<Array<{ path: string }>>(`/api/agents/${agent.body.id}/workspace/files`);
    expect(shared.body.map((e) => e.path)).not.toContain('plans/PLAN.md');
  });
});
