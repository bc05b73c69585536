import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  isInitializeRequest,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

export const CONSENT_URL = 'https://auth.example.test/oauth/consent?client=agentry&state=calendar';

export interface ConsentMcpServer {
  url: string;
  /**
   * Calls of `read_calendar`, each with what the client answered when the server asked for consent, and the
   * bearer token it was made with, when it carried one the server issued.
   */
  calls: Array<{ asked: boolean; answer?: string; token?: string }>;
  /** The user completes the consent at the link (what the OAuth provider would tell the server). */
  grant(): void;
  /**
   * One person completes the consent at the link, and the provider hands the application they return to a
   * token for them: a call that carries it as `Authorization: Bearer` needs no consent, whatever `grant`.
   */
  issueToken(): string;
  revoke(): void;
  close(): Promise<void>;
}

/**
 * An MCP server on the official SDK (Streamable HTTP, loopback) whose `read_calendar` needs the user's consent:
 * until it is granted, a call asks the client for it with a URL-mode elicitation and then fails.
 */
export async function startConsentMcpServer(): Promise<ConsentMcpServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const calls: ConsentMcpServer['calls'] = [];
  let granted = false;
  const tokens = new Set<string>();

  const mcpServer = () => {
    const server = new Server({ name: 'consent-test', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [
        {
          name: 'read_calendar',
          description: "Reads the user's calendar (needs their consent)",
          inputSchema: { type: 'object', properties: { day: { type: 'string' } } },
        },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const bearer = /^Bearer (.+)$/.exec(String(extra.requestInfo?.headers.authorization ?? ''))?.[1];
      const token = bearer && tokens.has(bearer) ? bearer : undefined;
      const call: ConsentMcpServer['calls'][number] = { asked: !granted && !token };
      if (token) call.token = token;
      calls.push(call);
      if (!call.asked) {
        const day = String(request.params.arguments?.day ?? 'today');
        return { content: [{ type: 'text', text: `calendar for ${day}: standup at 9` }] };
      }
      const answer = await server.elicitInput(
        {
          mode: 'url',
          message: 'Allow Agentry to read your calendar',
          elicitationId: randomUUID(),
          url: CONSENT_URL,
        },
        { relatedRequestId: extra.requestId },
      );
      call.answer = answer.action;
      return { isError: true, content: [{ type: 'text', text: 'consent is needed first' }] };
    });
    return server;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, body: unknown) => {
    const sessionId = req.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (!transport) {
      if (req.method !== 'POST' || !isInitializeRequest(body)) {
        res.writeHead(404).end();
        return;
      }
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          transports.set(id, created);
        },
      });
      created.onclose = () => {
        if (created.sessionId) transports.delete(created.sessionId);
      };
      await mcpServer().connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res, body);
  };

  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body: unknown = text ? JSON.parse(text) : undefined;
      handle(req, res, body).catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    grant: () => {
      granted = true;
    },
    revoke: () => {
      granted = false;
    },
    issueToken: () => {
      const token = `cal-token-${randomUUID()}`;
      tokens.add(token);
      return token;
    },
    close: async () => {
      await Promise.all([...transports.values()].map((t) => t.close().catch(() => undefined)));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
