import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  FakeOpenAiServer,
  launchPlatform,
  pollUntil,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import type { Created, ErrorReply } from './wire-types.js';

const AGENTS_LINE = 'Always end a reply with the phrase "Filed by Quillmate".';
const SKILL_MD =
  '---\nname: release-notes\ndescription: Drafts release notes from merged pull requests\n---\n\nGroup the changes by area.\n';

/**
 * What is written to an agent's workspace over `/api` is what its turns see: AGENTS.md and the
 * workspace skills reach the model's system prompt (an OpenAI-compatible fake records the request).
 */
describe('/api agent workspace', () => {
  let db: TestDatabase;
  let model: FakeOpenAiServer;
  let platform: RunningPlatform;
  let token: string;
  let agentId: string;

  async function call<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${platform.gatewayUrl}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    model = await FakeOpenAiServer.start();
    model.setDefault({ text: 'Noted. Filed by Quillmate' });
    platform = await launchPlatform({
      databaseUrl: db.url,
      env: { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: 'sk-fake' },
    });
    const login = await fetch(`${platform.gatewayUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'admin' }),
    });
    token = ((await login.json()) as { token: string }).token;
    const agent = await call<Created>('POST', '/api/agents', {
      name: 'Quill',
      model: 'openai/gpt-4.1',
      system: 'You write release notes.',
    });
    expect(agent.status).toBe(200);
    agentId = agent.body.id;
  });

  afterAll(async () => {
    await platform?.stop();
    await model?.close();
    await db?.drop();
  });

  it('writes AGENTS.md, a skill and a sub-agent, and reads them back', async () => {
    const put = await call('PUT', `/api/agents/${agentId}/workspace/file`, {
      path: 'AGENTS.md',
      content: `# Quill\n${AGENTS_LINE}\n`,
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ path: 'AGENTS.md', kind: 'file' });
    const skill = await call('PUT', `/api/agents/${agentId}/skills/workspace/release-notes`, {
      markdown: SKILL_MD,
      resources: { 'examples/v1.md': '## v1\n- first' },
    });
    expect(skill.status).toBe(200);
    expect(skill.body).toMatchObject({ name: 'release-notes', resources: ['examples/v1.md'] });
    const sub = await call('PUT', `/api/agents/${agentId}/workspace/subagents/checker`, {
      description: 'Checks links',
      inlineBody: 'You check links.',
    });
    expect(sub.status).toBe(200);

    expect(
      (await call<{ content: string }>('GET', `/api/agents/${agentId}/workspace/file?path=AGENTS.md`)).body
        .content,
    ).toContain(AGENTS_LINE);
    expect((await call('GET', `/api/agents/${agentId}/workspace`)).body).toMatchObject({
      agentId,
      hasAgentsMd: true,
      skills: ['release-notes'],
      subagents: ['checker'],
    });
    expect((await call('GET', `/api/agents/${agentId}/skills/workspace`)).body).toEqual([
      {
        name: 'release-notes',
        description: 'Drafts release notes from merged pull requests',
        path: 'skills/release-notes/SKILL.md',
      },
    ]);
    expect((await call('GET', `/api/agents/${agentId}/workspace/subagents`)).body).toEqual([
      expect.objectContaining({
        name: 'checker',
        description: 'Checks links',
        inlineBody: 'You check links.',
      }),
    ]);
    const files = (
      await call<Array<{ path: string }>>('GET', `/api/agents/${agentId}/workspace/files`)
    ).body.map((e) => e.path);
    expect(files).toEqual(
      expect.arrayContaining([
        'AGENTS.md',
        'skills/release-notes/SKILL.md',
        'skills/release-notes/examples/v1.md',
        'subagents/checker.md',
      ]),
    );
  });

  it('answers bad paths, bad skills, oversize files and unknown agents with typed errors', async () => {
    const escape = await call<ErrorReply>('PUT', `/api/agents/${agentId}/workspace/file`, {
      path: '../other/AGENTS.md',
      content: 'x',
    });
    expect(escape.status).toBe(400);
    expect(escape.body).toMatchObject({ type: 'error' });
    expect(escape.body.error.message).toContain('parent reference');
    const badSkill = await call<ErrorReply>('PUT', `/api/agents/${agentId}/skills/workspace/release-notes`, {
      markdown: '# no front matter',
    });
    expect(badSkill.status).toBe(400);
    expect(badSkill.body.error.message).toMatch(/front matter/);
    const badName = await call('GET', `/api/agents/${agentId}/skills/workspace/..%2Fx`);
    expect(badName.status).toBe(400);
    const huge = await call('PUT', `/api/agents/${agentId}/workspace/file`, {
      path: 'knowledge/huge.md',
      content: 'x'.repeat(300 * 1024),
    });
    expect(huge.status).toBe(413);
    expect((await call('GET', `/api/agents/agent_unknown/workspace`)).status).toBe(404);
    expect((await call('GET', `/api/agents/${agentId}/workspace/file?path=knowledge/huge.md`)).status).toBe(
      404,
    );
  });

  it('puts AGENTS.md and the skill into the system prompt of the next turn', async () => {
    const environment = await call<Created>('POST', '/api/environments', { name: 'laptop', type: 'local' });
    const session = await call<Created>('POST', '/api/sessions', {
      agent: agentId,
      environmentId: environment.body.id,
    });
    expect(session.status).toBe(200);
    const sessionId = session.body.id;
    model.reset();
    const sent = await call('POST', `/api/sessions/${sessionId}/events`, {
      events: [{ type: 'user.message', payload: { text: 'Draft the notes.' } }],
    });
    expect(sent.status).toBe(200);

    let events: Array<{ type: string }> = [];
    await pollUntil(
      'the turn to end',
      async () => {
        events = (await call<Array<{ type: string }>>('GET', `/api/sessions/${sessionId}/events`)).body;
        return events.some((e) => e.type === 'session.status_idle' || e.type === 'session.error');
      },
      60_000,
    ).catch(() => undefined);
    expect(events.find((e) => e.type === 'agent.message')).toBeDefined();

    const first = model.completionRequests[0];
    expect(first).toBeDefined();
    const system = (first!.messages ?? [])
      .filter((m) => m.role === 'system')
      .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
      .join('\n');
    expect(system).toContain('You write release notes.');
    expect(system).toContain(AGENTS_LINE);
    expect(system).toContain('release-notes');
    expect(system).toContain('Drafts release notes from merged pull requests');
  });
});
