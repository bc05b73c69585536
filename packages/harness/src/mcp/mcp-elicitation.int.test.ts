import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  UrlElicitationRequiredError,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolContext } from '../tools/tool.js';
import { McpManager } from './mcp.manager.js';

const context = (): ToolContext => ({
  toolCallId: 'call_1',
  fs: {} as ToolContext['fs'],
  signal: new AbortController().signal,
  sessionId: 'sess_1',
  agentId: 'agent_1',
  values: {},
});

const LINK = 'https://auth.example.test/consent?state=1';

describe('MCP URL elicitation: a call the server cannot finish until the user acts at a link', () => {
  let http: HttpServer;
  let manager: McpManager;
  /** What the client answered each `elicitation/create`. */
  const answers: string[] = [];

  beforeAll(async () => {
    const transports = new Map<string, StreamableHTTPServerTransport>();
    const mcpServer = () => {
      const server = new Server({ name: 'elicits', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.setRequestHandler(ListToolsRequestSchema, () => ({
        tools: ['asks', 'requires', 'plain'].map((name) => ({
          name,
          inputSchema: { type: 'object' as const },
        })),
      }));
      server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
        const asked = { mode: 'url' as const, message: 'Sign in', elicitationId: randomUUID(), url: LINK };
        if (request.params.name === 'requires') throw new UrlElicitationRequiredError([asked]);
        if (request.params.name === 'asks') {
          const answer = await server.elicitInput(asked, { relatedRequestId: extra.requestId });
          answers.push(answer.action);
          return { isError: true, content: [{ type: 'text', text: 'no consent' }] };
        }
        return { content: [{ type: 'text', text: 'plain result' }] };
      });
      return server;
    };
    http = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const body: unknown = text ? JSON.parse(text) : undefined;
        const id = req.headers['mcp-session-id'];
        const known = typeof id === 'string' ? transports.get(id) : undefined;
        void (async () => {
          let transport = known;
          if (!transport) {
            const created = new StreamableHTTPServerTransport({
              sessionIdGenerator: () => randomUUID(),
              onsessioninitialized: (sid) => {
                transports.set(sid, created);
              },
            });
            await mcpServer().connect(created);
            transport = created;
          }
          await transport.handleRequest(req, res, body);
        })();
      });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as AddressInfo;
    manager = new McpManager([{ name: 'auth', transport: 'http', url: `http://127.0.0.1:${port}/mcp` }]);
  });

  afterAll(async () => {
    await manager.close();
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  });

  const call = async (name: string) => {
    const tool = (await manager.toolsOf('auth')).find((t) => t.name === `mcp__auth__${name}`)!;
    return tool.execute({}, context());
  };
  const pending = { status: 'pending', elicitation: { serverName: 'auth', message: 'Sign in', url: LINK } };

  it('an elicitation/create in URL mode during the call: the server hears cancel, the call waits on the link', async () => {
    expect(await call('asks')).toEqual(pending);
    expect(answers).toEqual(['cancel']);
  });

  it('a URLElicitationRequired error: the call waits on the link', async () => {
    expect(await call('requires')).toEqual(pending);
  });

  it('a call the server does not ask about returns its result', async () => {
    expect(await call('plain')).toEqual({ status: 'ok', content: [{ type: 'text', text: 'plain result' }] });
  });
});
