import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  FakeOpenAiServer,
  launchPlatform,
  repoRoot,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import { completeTurn, waitFor } from './outage-fixture.js';
import type { Created, Page, SessionEvent } from './wire-types.js';

interface SdkTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

/** The official SDK's `agent_toolset_20260401` (what a CMA worker runs), resolved as the harness resolves it. */
function officialToolset(): SdkTool[] {
  const require = createRequire(join(repoRoot(), 'packages/harness/package.json'));
  const toolset = require('@anthropic-ai/sdk/tools/agent-toolset/node') as {
    betaAgentToolset20260401: (ctx: { workdir: string }) => SdkTool[];
  };
  return toolset.betaAgentToolset20260401({ workdir: '/nonexistent' });
}

/** Documented inputs of the web tools, which the SDK runs server-side and declares no schema for. */
const WEB_TOOL_INPUTS: Record<string, string[]> = { web_fetch: ['url'], web_search: ['query'] };
const TOOLSET_NAMES = ['bash', 'edit', 'glob', 'grep', 'read', 'web_fetch', 'web_search', 'write'];
const AGENTSCOPE_NAMES = [
  'execute',
  'read_file',
  'write_file',
  'edit_file',
  'list_files',
  'glob_files',
  'grep_files',
];

async function httpServer(body: string): Promise<{ server: Server; port: number }> {
  const server = createServer((_req, res) => res.end(body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/**
 * The Hands through the API on five processes: every environment type offers the CMA toolset, and a
 * session's bash is a bubblewrap sandbox that sees only its own workspace and reaches only what its
 * networking admits.
 */
describe('the Hands: one toolset, a sandbox per session, networking enforced', () => {
  let db: TestDatabase;
  let model: FakeOpenAiServer;
  let platform: RunningPlatform;
  let api: ApiClient;
  let allowed: { server: Server; port: number };
  let other: { server: Server; port: number };

  beforeAll(async () => {
    db = await createTestDatabase();
    model = await FakeOpenAiServer.start();
    model.setDefault({ text: 'Done.' });
    allowed = await httpServer('hello from the allowed host');
    other = await httpServer('should never be read');
    platform = await launchPlatform({
      databaseUrl: db.url,
      env: {
        OPENAI_BASE_URL: model.baseUrl,
        OPENAI_API_KEY: 'sk-fake',
        AGENTRY_SANDBOX_EGRESS_PRIVATE_ALLOWED: `127.0.0.1:${allowed.port},127.0.0.1:${other.port}`,
      },
    });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
    await model?.close();
    await db?.drop();
    allowed?.server.close();
    other?.server.close();
  });

  async function environment(config: Record<string, unknown>): Promise<string> {
    const created = await api.post<Created>('/v1/environments', {
      name: `env-${String(config.type)}-${Math.random().toString(36).slice(2, 8)}`,
      config,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return created.body.id;
  }

  async function session(agentId: string, environmentId: string): Promise<string> {
    const created = await api.post<Created>('/v1/sessions', {
      agent: agentId,
      environment_id: environmentId,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return created.body.id;
  }

  const modelCalls = () => model.completionRequests;

  /** The tools the model was offered on the first model call of a new session's turn. */
  async function offeredTools(
    agentId: string,
    environmentId: string,
  ): Promise<Map<string, { description: string | undefined; parameters: unknown }>> {
    model.reset();
    const id = await session(agentId, environmentId);
    await api.post(`/v1/sessions/${id}/events`, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'hi' }] }],
    });
    // The turn's call is the one offering tools: the previous session's memory extraction (no tools)
    // may still reach the model after the reset.
    const turnCall = await waitFor(
      () => Promise.resolve(modelCalls().find((r) => (r.tools?.length ?? 0) > 0)),
      (r) => r !== undefined,
      60_000,
      'a model call',
    );
    const tools = turnCall?.tools ?? [];
    return new Map(
      tools.map((t) => [
        t.function.name,
        { description: t.function.description, parameters: t.function.parameters },
      ]),
    );
  }

  it('offers the official SDK toolset, names and input schemas, in every environment type', async () => {
    const official = officialToolset();
    const agent = await api.post<Created>('/v1/agents', {
      name: 'toolset',
      model: { id: 'openai/gpt-4.1' },
      tools: [{ type: 'agent_toolset_20260401' }],
    });
    for (const config of [
      { type: 'local' },
      { type: 'cloud' },
      { type: 'remote' },
      { type: 'self_hosted' },
    ]) {
      const tools = await offeredTools(agent.body.id, await environment(config));
      const toolsetNames = [...tools.keys()].filter((name) => TOOLSET_NAMES.includes(name)).sort();
      expect(toolsetNames, config.type).toEqual(TOOLSET_NAMES);
      for (const name of AGENTSCOPE_NAMES)
        expect(tools.has(name), `${config.type} offers ${name}`).toBe(false);
      for (const twin of official) {
        expect(tools.get(twin.name)!.parameters, `${config.type} ${twin.name}`).toEqual(twin.input_schema);
        expect(tools.get(twin.name)!.description).toBe(twin.description);
      }
      for (const [name, inputs] of Object.entries(WEB_TOOL_INPUTS)) {
        expect(tools.get(name)!.parameters).toMatchObject({ type: 'object', required: inputs });
      }
    }
  });

  it('does not offer a tool the agent disables, in any environment type', async () => {
    const agent = await api.post<Created>('/v1/agents', {
      name: 'no-shell',
      model: { id: 'openai/gpt-4.1' },
      tools: [
        {
          type: 'agent_toolset_20260401',
          configs: [
            { name: 'bash', enabled: false },
            { name: 'web_search', enabled: false },
          ],
        },
      ],
    });
    for (const config of [{ type: 'local' }, { type: 'remote' }, { type: 'self_hosted' }]) {
      const names = [...(await offeredTools(agent.body.id, await environment(config))).keys()];
      expect(names, config.type).toEqual(
        expect.arrayContaining(['read', 'write', 'edit', 'glob', 'grep', 'web_fetch']),
      );
      expect(names, config.type).not.toContain('bash');
      expect(names, config.type).not.toContain('web_search');
    }
  });

  /** Runs scripted tool calls in a new session of `environmentId` and returns each tool result's text. */
  async function runTools(
    environmentId: string,
    calls: Array<{ name: string; input: Record<string, unknown> }>,
  ): Promise<{ agentId: string; sessionId: string; results: Array<{ isError: boolean; text: string }> }> {
    const script = { turns: [{ reply: [...calls.map((toolCall) => ({ toolCall })), 'done'] }] };
    const agent = await api.post<Created>('/v1/agents', {
      name: 'prober',
      model: { id: 'scripted', script },
      tools: [{ type: 'agent_toolset_20260401' }],
    });
    const sessionId = await session(agent.body.id, environmentId);
    await completeTurn(api, sessionId, 'go', 90_000);
    const events = (await api.get<Page<SessionEvent>>(`/v1/sessions/${sessionId}/events?limit=1000`)).body
      .data;
    const results = events
      .filter((e) => e.type === 'agent.tool_result')
      .map((e) => ({
        isError: e.is_error === true,
        text: (e.content ?? []).map((c) => c.text ?? '').join(''),
      }));
    expect(results).toHaveLength(calls.length);
    return { agentId: agent.body.id, sessionId, results };
  }

  it("keeps a session's bash away from other sessions, the host and the platform's services", async () => {
    const local = await environment({ type: 'local' });
    const victim = await runTools(local, [
      { name: 'write', input: { file_path: 'secret.txt', content: 'victim secret' } },
    ]);
    expect(victim.results[0]!.isError).toBe(false);
    const gatewayPort = new URL(platform.gatewayUrl).port;
    const probes = [
      `cat ${platform.workdirRoot}/*/${victim.sessionId}/workspace/secret.txt`,
      `cat ${repoRoot()}/package.json`,
      // The sandbox's /etc is the platform's userland: no account there has a password hash to read.
      "grep -v ':[*!]*:' /etc/shadow",
      `tr '\\0' '\\n' < /proc/1/environ | grep -E 'AGENTRY|DATABASE_URL|OPENAI'`,
      ...['5432', '6379', '4222', gatewayPort].map(
        (port) => `timeout 5 bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port}'`,
      ),
      ...['5432', gatewayPort].map(
        (port) => `curl -sS -m 5 --noproxy '' -p -x "$HTTPS_PROXY" http://127.0.0.1:${port}/`,
      ),
      'curl -sS --fail-with-body -m 5 http://169.254.169.254/latest/meta-data/',
    ];
    const attacker = await runTools(await environment({ type: 'cloud' }), [
      ...probes.map((command) => ({ name: 'bash', input: { command } })),
      { name: 'bash', input: { command: 'ls /workspace; id -u' } },
    ]);
    attacker.results.slice(0, probes.length).forEach((result, i) => {
      expect(result.isError, `${probes[i]} → ${result.text}`).toBe(true);
      expect(result.text).not.toContain('victim secret');
      expect(result.text).not.toContain(platform.env.AGENTRY_JWT_SECRET);
    });
    expect(attacker.results.at(-1)).toEqual({ isError: false, text: '1000' });
  });

  it('with limited networking, an allowed host answers and any other is refused', async () => {
    const limited = await environment({
      type: 'cloud',
      networking: { type: 'limited', allowed_hosts: [`127.0.0.1:${allowed.port}`] },
    });
    const proxied = (port: number) => `curl -sS -m 5 --noproxy '' -x "$HTTP_PROXY" http://127.0.0.1:${port}/`;
    const { results } = await runTools(limited, [
      { name: 'bash', input: { command: proxied(allowed.port) } },
      { name: 'bash', input: { command: `${proxied(other.port)}; exit 1` } },
    ]);
    expect(results[0]).toEqual({ isError: false, text: 'hello from the allowed host' });
    expect(results[1]!.text).toContain(
      `egress refused: 127.0.0.1:${other.port} is not in this environment's allowed_hosts`,
    );
    expect(results[1]!.text).not.toContain('should never be read');
  });

  it('gives remote environments no shell, with a clear tool error', async () => {
    const { agentId, results } = await runTools(await environment({ type: 'remote' }), [
      { name: 'bash', input: { command: 'ls' } },
      { name: 'write', input: { file_path: 'a.txt', content: 'kept' } },
      { name: 'read', input: { file_path: 'a.txt' } },
    ]);
    expect(results[0]?.isError).toBe(true);
    expect(results[0]?.text).toContain('remote environments have no shell');
    expect(results[2]).toEqual({ isError: false, text: 'kept' });
    // The session's files are its own, not the agent's shared workspace (AGENTS.md, skills…).
    const shared = await api.get(`/api/agents/${agentId}/workspace/files`);
    expect(shared.status).toBe(200);
    expect((shared.body as Array<{ path: string }>).map((e) => e.path)).not.toContain('a.txt');
  });
});
