import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

export interface McpHttpHost {
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface McpHttpHostOptions {
  /** A fresh MCP server for each session a client opens (the SDK's servers serve one transport each). */
  newServer: () => Server;
  /** Answers a request itself (e.g. a 401) and returns true, or returns false to let it through. */
  refuse?: (req: IncomingMessage, res: ServerResponse) => boolean;
  onSessionOpened?: () => void;
}

/**
 * Serves MCP servers of the official SDK over stateful Streamable HTTP on loopback, at `/mcp` on a free port:
 * an `initialize` POST opens a session with its own server, later requests find it by `mcp-session-id`.
 */
export async function hostMcpOverHttp(options: McpHttpHostOptions): Promise<McpHttpHost> {
  const transports = new Map<string, StreamableHTTPServerTransport>();

  const handle = async (req: IncomingMessage, res: ServerResponse, body: unknown) => {
    if (options.refuse?.(req, res)) return;
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
          options.onSessionOpened?.();
          transports.set(id, created);
        },
      });
      created.onclose = () => {
        if (created.sessionId) transports.delete(created.sessionId);
      };
      await options.newServer().connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res, body);
  };

  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        res.writeHead(400).end();
        return;
      }
      handle(req, res, body).catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    close: async () => {
      await Promise.all([...transports.values()].map((t) => t.close().catch(() => undefined)));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
