import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  FakeOtlpReceiver,
  launchPlatform,
  pollUntil,
  recordingFetch,
  registerSecret,
  repoRoot,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import { openConnectionsTo, startBearerMcpServer, type BearerMcpServer } from './bearer-mcp-server.js';

type Event = { id: string; type: string } & Record<string, unknown>;

/** Idle long enough to close a session's MCP connections, short enough for a test to see it happen. */
const MCP_IDLE_TIMEOUT_MS = 4_000;

const SCRIPT = {
  turns: [
    {
      match: 'take your time',
      reply: [
        {
          delayMs: MCP_IDLE_TIMEOUT_MS + 2_000,
          toolCall: { name: 'mcp__secure__echo', input: { text: 'late' } },
        },
        'Echoed late.',
      ],
    },
    {
      match: 'who am i',
      reply: [{ toolCall: { name: 'mcp__secure__whoami', input: {} } }, 'Checked who I am.'],
    },
    {
      match: 'echo',
      reply: [{ toolCall: { name: 'mcp__secure__echo', input: { text: 'hello' } } }, 'Echoed.'],
    },
    {
      match: 'ping the broken server',
      reply: [{ toolCall: { name: 'mcp__broken__ping', input: {} } }, 'The ping failed.'],
    },
  ],
};

async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const textOf = (event: Event | undefined): string =>
  ((event?.content as Array<{ type: string; text?: string }> | undefined) ?? [])
    .map((b) => b.text ?? '')
    .join('');

describe('the MCP servers of an agent, with bearer credentials from the session vault', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  // The services' traces are exported here, so the end-of-run secret scan reads them too.
  let otlp: FakeOtlpReceiver;
  let client: Anthropic;
  let mcp: BearerMcpServer;
  const token = `mcp-token-${randomBytes(12).toString('hex')}`;
  registerSecret('vault MCP bearer token', token);
  /** Every body the API answered with, scanned for the token at the end. */
  const responses: unknown[] = [];
  let agentId: string;
  let vaultId: string;
  let sessionWithVault: string;

  const events = async (sessionId: string): Promise<Event[]> => {
    const all: Event[] = [];
    for await (const event of client.beta.sessions.events.list(sessionId, { limit: 1000 }))
      all.push(event as unknown as Event);
    responses.push(all);
    return all;
  };

  /** Sends events and waits for the next `session.status_idle`; returns the events of the session so far. */
  const send = async (
    sessionId: string,
    sent: Array<Record<string, unknown>>,
  ): Promise<{ all: Event[]; idle: Event; turn: Event[] }> => {
    const before = (await events(sessionId)).length;
    await client.beta.sessions.events.send(sessionId, { events: sent as never });
    return pollUntil(`an idle session ${sessionId}`, async () => {
      const all = await events(sessionId);
      const turn = all.slice(before);
      const idle = turn.find((e) => e.type === 'session.status_idle');
      return idle ? { all, idle, turn } : undefined;
    });
  };
  const say = (sessionId: string, text: string) =>
    send(sessionId, [{ type: 'user.message', content: [{ type: 'text', text }] }]);

  beforeAll(async () => {
    db = await createTestDatabase();
    mcp = await startBearerMcpServer(token);
    otlp = await FakeOtlpReceiver.start();
    platform = await launchPlatform({
      databaseUrl: db.url,
      env: {
        ...otlp.exportEnv,
        AGENTRY_EGRESS_ALLOW_PRIVATE_NETWORKS: 'true',
        AGENTRY_MCP_IDLE_TIMEOUT_MS: String(MCP_IDLE_TIMEOUT_MS),
      },
    });
    const login = await new ApiClient(platform.gatewayUrl).post<{ token: string }>('/api/auth/login', {
      username: 'admin',
      password: 'admin',
    });
    client = new Anthropic({
      baseURL: platform.gatewayUrl,
      authToken: login.body.token,
      apiKey: null,
      maxRetries: 0,
      fetch: recordingFetch,
    });

    const agent = await client.beta.agents.create({
      name: 'mcp user',
      model: { id: 'scripted', script: SCRIPT } as never,
      mcp_servers: [{ type: 'url', name: 'secure', url: mcp.url }],
      // `echo` runs without asking; everything else on the server keeps CMA's default, always_ask.
      tools: [
        {
          type: 'mcp_toolset',
          mcp_server_name: 'secure',
          configs: [{ name: 'echo', permission_policy: { type: 'always_allow' } }],
        },
      ],
    });
    agentId = agent.id;
    const vault = await client.beta.vaults.create({ display_name: 'mcp secrets' });
    vaultId = vault.id;
    const credential = await client.beta.vaults.credentials.create(vault.id, {
      auth: { type: 'static_bearer', mcp_server_url: mcp.url, token },
    });
    responses.push(agent, vault, credential);
    const env = await client.beta.environments.create({ name: 'mcp env', config: { type: 'cloud' } });
    const session = await client.beta.sessions.create({
      agent: agentId,
      environment_id: env.id,
      vault_ids: [vaultId],
    });
    responses.push(session);
    sessionWithVault = session.id;
  });

  afterAll(async () => {
    await platform?.stop();
    await otlp?.stop();
    await mcp?.close();
    await db?.drop();
  });

  it('calls an MCP tool with the vault token after the user confirms it, as agent.mcp_tool_use / agent.mcp_tool_result', async () => {
    const asked = await say(sessionWithVault, 'who am i?');
    expect(asked.idle.stop_reason).toMatchObject({ type: 'requires_action' });
    const use = asked.turn.find((e) => e.type === 'agent.mcp_tool_use');
    expect(use).toMatchObject({
      name: 'whoami',
      mcp_server_name: 'secure',
      input: {},
      evaluated_permission: 'ask',
    });
    expect(mcp.calls).toEqual([]);

    const confirmed = await send(sessionWithVault, [
      { type: 'user.tool_confirmation', tool_use_id: use!.id, result: 'allow' },
    ]);
    const result = confirmed.turn.find((e) => e.type === 'agent.mcp_tool_result');
    expect(result).toMatchObject({ mcp_tool_use_id: use!.id, is_error: false });
    expect(textOf(result)).toContain('authenticated as the vault credential');
    expect(confirmed.idle.stop_reason).toMatchObject({ type: 'end_turn' });
    expect(mcp.calls.map((c) => c.name)).toEqual(['whoami']);
    expect(mcp.seenAuthorization).toContain(`Bearer ${token}`);

    const allowed = await say(sessionWithVault, 'echo hello');
    expect(allowed.turn.find((e) => e.type === 'agent.mcp_tool_use')).toMatchObject({
      name: 'echo',
      evaluated_permission: 'allow',
    });
    expect(textOf(allowed.turn.find((e) => e.type === 'agent.mcp_tool_result'))).toBe('echo: hello');
  });

  it('without the vault the call is a tool error naming the missing credential, and the session goes on', async () => {
    const env = await client.beta.environments.create({ name: 'no vault env', config: { type: 'cloud' } });
    const session = await client.beta.sessions.create({ agent: agentId, environment_id: env.id });
    const callsBefore = mcp.calls.length;
    const { turn, idle } = await say(session.id, 'echo hello');
    const use = turn.find((e) => e.type === 'agent.mcp_tool_use');
    const result = turn.find((e) => e.type === 'agent.mcp_tool_result');
    expect(use).toMatchObject({ name: 'echo', mcp_server_name: 'secure', evaluated_permission: 'allow' });
    expect(result).toMatchObject({ mcp_tool_use_id: use!.id, is_error: true });
    expect(textOf(result)).toMatch(
      /MCP server "secure".*unauthorized \(HTTP 401\).*credential for http:\/\/127\.0\.0\.1:\d+\/mcp is missing/,
    );
    // The model saw the error and answered; the turn did not fail.
    expect(turn.filter((e) => e.type === 'agent.message').map(textOf)).toContain('Echoed.');
    expect(turn.some((e) => e.type === 'session.error')).toBe(false);
    expect(idle.stop_reason).toMatchObject({ type: 'end_turn' });
    expect(mcp.calls.length).toBe(callsBefore);
  });

  it('a server that is down gives the model a tool error, not a failed turn', async () => {
    const broken = `http://127.0.0.1:${await closedPort()}/mcp`;
    const agent = await client.beta.agents.create({
      name: 'broken mcp user',
      model: { id: 'scripted', script: SCRIPT } as never,
      mcp_servers: [{ type: 'url', name: 'broken', url: broken }],
      tools: [
        {
          type: 'mcp_toolset',
          mcp_server_name: 'broken',
          default_config: { permission_policy: { type: 'always_allow' } },
          configs: [{ name: 'ping' }],
        },
      ],
    });
    const env = await client.beta.environments.create({ name: 'broken env', config: { type: 'cloud' } });
    const session = await client.beta.sessions.create({ agent: agent.id, environment_id: env.id });
    const { turn, idle } = await say(session.id, 'ping the broken server');
    const result = turn.find((e) => e.type === 'agent.mcp_tool_result');
    expect(result).toMatchObject({ is_error: true });
    expect(textOf(result)).toMatch(/MCP server "broken": cannot connect/);
    expect(turn.filter((e) => e.type === 'agent.message').map(textOf)).toContain('The ping failed.');
    expect(idle.stop_reason).toMatchObject({ type: 'end_turn' });
  });

  it(
    'keeps one pooled connection set over 50 turns and closes it once the session idles',
    { timeout: 600_000 },
    async () => {
      const dataplane = platform.service('dataplane').pid!;
      await say(sessionWithVault, 'echo turn 0');
      const mcpSessions = mcp.sessionsOpened();
      const sockets: number[] = [];
      for (let i = 1; i <= 50; i++) {
        const { turn } = await say(sessionWithVault, `echo turn ${i}`);
        expect(turn.find((e) => e.type === 'agent.mcp_tool_result')).toMatchObject({ is_error: false });
        sockets.push(openConnectionsTo(dataplane, mcp.port));
      }
      // One MCP session for all 50 turns, and a steady handful of sockets (the POST and the server stream).
      expect(mcp.sessionsOpened()).toBe(mcpSessions);
      expect(Math.max(...sockets)).toBeLessThanOrEqual(3);
      expect(sockets.at(-1)).toBeGreaterThan(0);

      const idleSince = Date.now();
      await pollUntil(
        'the idle session to release its MCP sockets',
        () => (openConnectionsTo(dataplane, mcp.port) === 0 ? true : undefined),
        60_000,
      );
      expect(Date.now() - idleSince).toBeGreaterThanOrEqual(MCP_IDLE_TIMEOUT_MS - 1_000);

      // The next turn connects again.
      const { turn } = await say(sessionWithVault, 'echo after idling');
      expect(textOf(turn.find((e) => e.type === 'agent.mcp_tool_result'))).toBe('echo: hello');
      expect(mcp.sessionsOpened()).toBe(mcpSessions + 1);
    },
  );

  it('a call the model makes after the connections idled out under it reconnects and succeeds', async () => {
    const opened = mcp.sessionsOpened();
    const { turn, idle } = await say(sessionWithVault, 'take your time');
    const result = turn.find((e) => e.type === 'agent.mcp_tool_result');
    expect(result).toMatchObject({ is_error: false });
    expect(textOf(result)).toBe('echo: late');
    expect(idle.stop_reason).toMatchObject({ type: 'end_turn' });
    expect(mcp.sessionsOpened()).toBeGreaterThan(opened);
  });

  it('never shows the token in events, API responses or service logs', async () => {
    responses.push(
      await client.beta.sessions.retrieve(sessionWithVault),
      await client.beta.vaults.credentials.list(vaultId),
      await client.beta.agents.retrieve(agentId),
    );
    await events(sessionWithVault);
    const wire = JSON.stringify(responses);
    expect(wire).toContain('agent.mcp_tool_result');
    expect(wire).not.toContain(token);

    const runDir = join(repoRoot(), 'test-results', 'runs', platform.runId);
    const logs = readdirSync(runDir).filter((f) => f.endsWith('.log'));
    expect(logs.length).toBeGreaterThanOrEqual(5);
    for (const file of logs) expect(readFileSync(join(runDir, file), 'utf8'), file).not.toContain(token);
    // The server did receive it: the check above is not vacuous.
    expect(mcp.seenAuthorization.filter((h) => h === `Bearer ${token}`).length).toBeGreaterThan(50);
  });
});
