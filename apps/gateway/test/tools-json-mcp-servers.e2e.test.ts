import { readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  isAlive,
  launchPlatform,
  pollUntil,
  repoRoot,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';

type Event = { id: string; type: string } & Record<string, unknown>;

interface Created {
  id: string;
}

/** Idle long enough to close a session's MCP servers, short enough for a test to see it happen. */
const MCP_IDLE_TIMEOUT_MS = 5_000;

const SCRIPT = {
  turns: [
    {
      match: 'leave a marker',
      reply: [
        { toolCall: { name: 'bash', input: { command: 'echo written-in-the-sandbox > marker.txt' } } },
        'Marked.',
      ],
    },
    {
      match: 'read the marker',
      reply: [
        { toolCall: { name: 'mcp__files__read_text_file', input: { path: '/workspace/marker.txt' } } },
        'Read it.',
      ],
    },
    {
      match: 'ping the private server',
      reply: [{ toolCall: { name: 'mcp__private__ping', input: {} } }, 'The ping failed.'],
    },
  ],
};

/** server-filesystem's entry point, resolved as the harness package resolves it. */
function filesystemServer(): { script: string; store: string } {
  const require = createRequire(join(repoRoot(), 'packages/harness/package.json'));
  const pkg = realpathSync(dirname(require.resolve('@modelcontextprotocol/server-filesystem/package.json')));
  return { script: join(pkg, 'dist/index.js'), store: join(repoRoot(), 'node_modules/.pnpm') };
}

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

/** Parent pid of a host process. */
function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/** The chain of parents from a process up to pid 1. */
function ancestors(pid: number): number[] {
  const chain: number[] = [];
  for (let p = parentOf(pid); p > 1; p = parentOf(p)) chain.push(p);
  return chain;
}

const commandOf = (pid: number): string[] =>
  readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);

/** Host processes running `script`. */
function processesRunning(script: string): number[] {
  return readdirSync('/proc').flatMap((entry) => {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) return [];
    try {
      return commandOf(pid).includes(script) ? [pid] : [];
    } catch {
      return [];
    }
  });
}

/** Processes whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc').flatMap((entry) => {
    const child = Number(entry);
    if (!Number.isInteger(child)) return [];
    try {
      return parentOf(child) === pid ? [child] : [];
    } catch {
      return [];
    }
  });
}

/** Inodes of the TCP connections to Postgres (remote port 5432) on this machine. */
const postgresSocketInodes = (): Set<string> =>
  new Set(
    ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((table) =>
      readFileSync(table, 'utf8')
        .split('\n')
        .slice(1)
        .map((line) => line.trim().split(/\s+/))
        .filter((fields) => fields[2]?.endsWith(':1538'))
        .map((fields) => fields[9]!),
    ),
  );

/**
 * Sockets a process holds, leaving out its Postgres connections: its pools open those on demand (a periodic
 * task borrowing one while a turn holds another adds one at any time), which is not what this test watches.
 */
const socketsOf = (pid: number): number => {
  const postgres = postgresSocketInodes();
  return readdirSync(`/proc/${pid}/fd`).filter((fd) => {
    try {
      const link = readlinkSync(`/proc/${pid}/fd/${fd}`);
      return link.startsWith('socket:') && !postgres.has(link.slice('socket:['.length, -1));
    } catch {
      return false;
    }
  }).length;
};

/**
 * tools.json MCP servers on the five processes: a stdio server runs in the session's sandbox on the worker,
 * bridged over NATS, never in the dataplane; a URL server at a private address meets the egress guard.
 */
describe('the MCP servers of tools.json', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;
  let sessionId: string;
  const server = filesystemServer();

  const events = async (id: string): Promise<Event[]> =>
    (await api.get<{ data: Event[] }>(`/v1/sessions/${id}/events?limit=1000`)).body.data;

  /** Sends events and waits for the next idle; calls waiting for confirmation are allowed, as a user would. */
  const send = async (
    id: string,
    sent: Array<Record<string, unknown>>,
  ): Promise<{ turn: Event[]; idle: Event }> => {
    const before = (await events(id)).length;
    const posted = await api.post(`/v1/sessions/${id}/events`, { events: sent });
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    const { turn, idle } = await pollUntil(`an idle session ${id}`, async () => {
      const turn = (await events(id)).slice(before);
      const idle = turn.find((e) => e.type === 'session.status_idle');
      return idle ? { turn, idle } : undefined;
    });
    const waiting =
      (idle.stop_reason as { type: string; event_ids?: string[] }).type === 'requires_action'
        ? (idle.stop_reason as { event_ids: string[] }).event_ids
        : [];
    if (waiting.length === 0) return { turn, idle };
    const next = await send(
      id,
      waiting.map((tool_use_id) => ({ type: 'user.tool_confirmation', tool_use_id, result: 'allow' })),
    );
    return { turn: [...turn, ...next.turn], idle: next.idle };
  };
  const say = (id: string, text: string) =>
    send(id, [{ type: 'user.message', content: [{ type: 'text', text }] }]);

  async function agentWithToolsJson(mcpServers: Record<string, unknown>): Promise<string> {
    const agent = await api.post<Created>('/v1/agents', {
      name: 'tools.json mcp',
      model: { id: 'scripted', script: SCRIPT },
      tools: [{ type: 'agent_toolset_20260401' }],
    });
    expect(agent.status, JSON.stringify(agent.body)).toBe(200);
    const written = await api.request('PUT', `/api/agents/${agent.body.id}/workspace/file`, {
      path: 'tools.json',
      content: JSON.stringify({ mcpServers }),
    });
    expect([200, 201], JSON.stringify(written.body)).toContain(written.status);
    return agent.body.id;
  }

  async function newSession(agentId: string): Promise<string> {
    const env = await api.post<Created>('/v1/environments', {
      name: `env-${Math.random().toString(36).slice(2, 8)}`,
      config: { type: 'cloud' },
    });
    const created = await api.post<Created>('/v1/sessions', { agent: agentId, environment_id: env.body.id });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return created.body.id;
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({
      databaseUrl: db.url,
      readyTimeoutMs: 300_000,
      // No AGENTRY_EGRESS_ALLOW_PRIVATE_NETWORKS: loopback MCP servers are refused, as in production.
      env: {
        AGENTRY_MCP_IDLE_TIMEOUT_MS: String(MCP_IDLE_TIMEOUT_MS),
        AGENTRY_SANDBOX_READONLY_PATHS: server.store,
      },
    });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    const agentId = await agentWithToolsJson({
      files: { command: 'node', args: [server.script, '/workspace'] },
    });
    sessionId = await newSession(agentId);
  }, 420_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  it('runs a stdio server inside the session sandbox on the worker, never under the dataplane', async () => {
    await say(sessionId, 'leave a marker');
    const { turn, idle } = await say(sessionId, 'read the marker');
    const use = turn.find((e) => e.type === 'agent.mcp_tool_use');
    expect(use).toMatchObject({
      name: 'read_text_file',
      mcp_server_name: 'files',
      input: { path: '/workspace/marker.txt' },
    });
    const result = turn.find((e) => e.type === 'agent.mcp_tool_result');
    expect(result).toMatchObject({ mcp_tool_use_id: use!.id, is_error: false });
    // The server reads the file the session's bash wrote: it sees the sandbox's /workspace.
    expect(textOf(result)).toContain('written-in-the-sandbox');
    expect(idle.stop_reason).toMatchObject({ type: 'end_turn' });

    const worker = platform.service('worker').pid!;
    const dataplane = platform.service('dataplane').pid!;
    const running = processesRunning(server.script);
    expect(running).toHaveLength(1);
    const chain = ancestors(running[0]!);
    expect(chain).toContain(worker);
    expect(chain).not.toContain(dataplane);
    // Between the server and the worker: bubblewrap.
    const below = chain.slice(0, chain.indexOf(worker));
    expect(below.some((pid) => commandOf(pid)[0]?.endsWith('bwrap'))).toBe(true);
  });

  it(
    'keeps one server over 50 turns, leaves the dataplane no extra children or sockets, and closes it once idle',
    { timeout: 600_000 },
    async () => {
      const dataplane = platform.service('dataplane').pid!;
      await say(sessionId, 'read the marker');
      const [serverPid] = processesRunning(server.script);
      const children = childrenOf(dataplane).length;
      const sockets: number[] = [];
      for (let i = 1; i <= 50; i++) {
        const { turn } = await say(sessionId, `read the marker, turn ${i}`);
        expect(textOf(turn.find((e) => e.type === 'agent.mcp_tool_result'))).toContain(
          'written-in-the-sandbox',
        );
        sockets.push(socketsOf(dataplane));
      }
      expect(processesRunning(server.script)).toEqual([serverPid]);
      expect(childrenOf(dataplane).length).toBeLessThanOrEqual(children);
      // Sockets stay flat: the last turns hold no more than the first ones.
      expect(Math.max(...sockets.slice(-10))).toBeLessThanOrEqual(Math.max(...sockets.slice(0, 10)));

      const idleSince = Date.now();
      await pollUntil(
        'the idle session to end its stdio server',
        () => (isAlive(serverPid!) ? undefined : true),
        60_000,
      );
      expect(Date.now() - idleSince).toBeGreaterThanOrEqual(MCP_IDLE_TIMEOUT_MS - 2_000);
      expect(processesRunning(server.script)).toEqual([]);

      // The next turn starts it again, in the sandbox.
      const { turn } = await say(sessionId, 'read the marker after idling');
      expect(textOf(turn.find((e) => e.type === 'agent.mcp_tool_result'))).toContain(
        'written-in-the-sandbox',
      );
      expect(processesRunning(server.script)).toHaveLength(1);
    },
  );

  it('refuses a URL server at a private address with a clear tool error, and the turn goes on', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/mcp`;
    const agentId = await agentWithToolsJson({ private: { url, enableTools: ['ping'] } });
    const { turn, idle } = await say(await newSession(agentId), 'ping the private server');
    const result = turn.find((e) => e.type === 'agent.mcp_tool_result');
    expect(result).toMatchObject({ is_error: true });
    expect(textOf(result)).toMatch(
      /MCP server "private": cannot connect: refused by the egress policy: .*127\.0\.0\.1, a loopback address/,
    );
    expect(turn.filter((e) => e.type === 'agent.message').map(textOf)).toContain('The ping failed.');
    expect(turn.some((e) => e.type === 'session.error')).toBe(false);
    expect(idle.stop_reason).toMatchObject({ type: 'end_turn' });
  });
});
