import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server as HttpServer } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HarnessTool, ToolContext } from '../tools/tool.js';
import { McpManager } from './mcp.manager.js';

const EVERYTHING = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);

const context = (): ToolContext => ({
  toolCallId: 'call_1',
  fs: {} as ToolContext['fs'],
  signal: new AbortController().signal,
  sessionId: 'sess_1',
  agentId: 'agent_1',
  values: {},
});

const byName = (tools: HarnessTool[], name: string): HarnessTool => {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name} in ${tools.map((t) => t.name).join(', ')}`);
  return tool;
};

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts server-everything in an HTTP mode and waits until it says it listens. */
async function startEverything(
  mode: 'sse' | 'streamableHttp',
): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server-everything ${mode} did not start`)), 15_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      if (/port/i.test(chunk.toString())) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`server-everything ${mode} exited with ${code}`)));
  });
  return { child, port };
}

describe.each([
  ['sse', 'sse', '/sse'],
  ['http', 'streamableHttp', '/mcp'],
] as const)('MCP over %s: server-everything', (transport, mode, path) => {
  let child: ChildProcess;
  let manager: McpManager;
  beforeAll(async () => {
    const started = await startEverything(mode);
    child = started.child;
    manager = new McpManager([
      { name: 'remote', transport, url: `http://127.0.0.1:${started.port}${path}`, timeoutMs: 10_000 },
    ]);
  });
  afterAll(async () => {
    await manager.close();
    child.kill('SIGKILL');
  });

  it('lists tools and calls one', async () => {
    const tools = await manager.toolsOf('remote');
    const sum = byName(tools, 'mcp__remote__get-sum');
    expect(sum.toolset).toBe('mcp:remote');
    const outcome = await sum.execute({ a: 2, b: 3 }, context());
    expect(outcome.status).toBe('ok');
    expect(JSON.stringify(outcome)).toContain('5');
  });
});

describe('MCP over Streamable HTTP: in-process server', () => {
  let http: HttpServer;
  let url: string;
  const seenAuth: Array<string | undefined> = [];

  beforeAll(async () => {
    http = createServer((req, res) => {
      seenAuth.push(req.headers.authorization);
      if (req.headers.authorization !== 'Bearer s3cret') {
        res.writeHead(401).end();
        return;
      }
      // Stateless mode: one server and transport per request.
      const server = new Server({ name: 'inproc', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.setRequestHandler(ListToolsRequestSchema, () => ({
        tools: [
          {
            name: 'lookup',
            description: 'Looks up a key',
            inputSchema: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
            annotations: { readOnlyHint: true },
          },
          { name: 'explode', description: 'Always fails', inputSchema: { type: 'object' } },
        ],
      }));
      server.setRequestHandler(CallToolRequestSchema, (request) => {
        if (request.params.name === 'lookup')
          return { content: [{ type: 'text', text: `value of ${String(request.params.arguments?.key)}` }] };
        return { isError: true, content: [{ type: 'text', text: 'it exploded' }] };
      });
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      void server.connect(transport).then(() => transport.handleRequest(req, res));
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  });

  it('sends the configured headers, maps results and isError', async () => {
    const manager = new McpManager(
      [{ name: 'kv', transport: 'http', url, headers: { authorization: 'Bearer s3cret' } }],
      { autoAllowReadOnly: true },
    );
    try {
      const tools = await manager.toolsOf('kv');
      const lookup = byName(tools, 'mcp__kv__lookup');
      expect(lookup).toMatchObject({
        defaultPermission: 'always_allow',
        idempotent: true,
        description: 'Looks up a key',
      });
      expect(byName(tools, 'mcp__kv__explode')).toMatchObject({
        defaultPermission: 'always_ask',
        idempotent: false,
      });
      expect(await lookup.execute({ key: 'k1' }, context())).toEqual({
        status: 'ok',
        content: [{ type: 'text', text: 'value of k1' }],
      });
      expect(await byName(tools, 'mcp__kv__explode').execute({}, context())).toEqual({
        status: 'error',
        content: [{ type: 'text', text: 'it exploded' }],
        reason: 'it exploded',
      });
      expect(seenAuth.length).toBeGreaterThan(0);
      expect(seenAuth.every((h) => h === 'Bearer s3cret')).toBe(true);
    } finally {
      await manager.close();
    }
  });

  it('reports a rejected credential as MCP_CONNECTION_FAILED, saying the credential is missing or refused', async () => {
    const manager = new McpManager([
      { name: 'kv', transport: 'http', url, headers: { authorization: 'Bearer wrong' } },
    ]);
    try {
      await expect(manager.toolsOf('kv')).rejects.toMatchObject({
        code: 'MCP_CONNECTION_FAILED',
        message: `MCP server "kv": the server refused the connection as unauthorized (HTTP 401); a credential for ${url} is missing or was not accepted`,
      });
    } finally {
      await manager.close();
    }
  });

  it('sends every request through the configured fetch', async () => {
    const fetched: string[] = [];
    const manager = new McpManager([
      {
        name: 'kv',
        transport: 'http',
        url,
        headers: { authorization: 'Bearer s3cret' },
        fetch: (target, init) => {
          fetched.push(`${init?.method ?? 'GET'} ${String(target)}`);
          return fetch(target, init);
        },
      },
    ]);
    try {
      await byName(await manager.toolsOf('kv'), 'mcp__kv__lookup').execute({ key: 'k' }, context());
      expect(fetched.filter((f) => f === `POST ${url}`).length).toBeGreaterThanOrEqual(3);
    } finally {
      await manager.close();
    }
  });
});

describe('MCP over Streamable HTTP with SSE fallback: a server that speaks only legacy SSE', () => {
  let child: ChildProcess;
  let url: string;
  beforeAll(async () => {
    const started = await startEverything('sse');
    child = started.child;
    url = `http://127.0.0.1:${started.port}/sse`;
  });
  afterAll(() => {
    child.kill('SIGKILL');
  });

  it('connects over SSE when the Streamable HTTP handshake is refused', async () => {
    const manager = new McpManager([
      { name: 'legacy', transport: 'http', sseFallback: true, url, timeoutMs: 10_000 },
    ]);
    try {
      const outcome = await byName(await manager.toolsOf('legacy'), 'mcp__legacy__get-sum').execute(
        { a: 4, b: 5 },
        context(),
      );
      expect(JSON.stringify(outcome)).toContain('9');
    } finally {
      await manager.close();
    }
  });

  it('does not fall back unless asked to', async () => {
    const manager = new McpManager([{ name: 'legacy', transport: 'http', url, timeoutMs: 10_000 }]);
    try {
      await expect(manager.toolsOf('legacy')).rejects.toMatchObject({ code: 'MCP_CONNECTION_FAILED' });
    } finally {
      await manager.close();
    }
  });
});

describe('MCP over HTTP: nothing listening', () => {
  it.each(['http', 'sse'] as const)('fails fast over %s with MCP_CONNECTION_FAILED', async (transport) => {
    const port = await freePort();
    // Timeouts far past the test's own: failing within the test shows it waited for none of them.
    const manager = new McpManager([
      {
        name: 'gone',
        transport,
        url: `http://127.0.0.1:${port}/mcp`,
        timeoutMs: 600_000,
        connectTimeoutMs: 600_000,
      },
    ]);
    try {
      const { tools, failures } = await manager.listTools();
      expect(tools).toEqual([]);
      expect(failures.map((f) => f.error.code)).toEqual(['MCP_CONNECTION_FAILED']);
    } finally {
      await manager.close();
    }
  });
});
