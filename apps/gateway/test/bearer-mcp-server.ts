import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { hostMcpOverHttp } from './mcp-http-host.js';

export interface BearerMcpServer {
  url: string;
  port: number;
  /** `Authorization` headers of every request, accepted or not. */
  seenAuthorization: Array<string | undefined>;
  /** Tool calls the server answered. */
  calls: Array<{ name: string; arguments: unknown }>;
  /** MCP sessions opened (one `initialize` each). */
  sessionsOpened(): number;
  close(): Promise<void>;
}

/**
 * A stateful MCP server on the official SDK, served over Streamable HTTP on loopback, that answers only
 * requests carrying `Authorization: Bearer <token>` (a function gives the token it accepts now, for a
 * server whose tokens expire). Tools: `whoami` and `echo`.
 */
export async function startBearerMcpServer(token: string | (() => string)): Promise<BearerMcpServer> {
  const accepted = typeof token === 'string' ? () => token : token;
  const seenAuthorization: Array<string | undefined> = [];
  const calls: BearerMcpServer['calls'] = [];
  let opened = 0;

  const mcpServer = () => {
    const server = new Server({ name: 'bearer-test', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [
        {
          name: 'whoami',
          description: 'Says who the caller is authenticated as',
          inputSchema: { type: 'object', properties: {} },
        },
        {
          name: 'echo',
          description: 'Echoes a text',
          inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
        },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, (request) => {
      calls.push({ name: request.params.name, arguments: request.params.arguments });
      if (request.params.name === 'whoami')
        return {
          content: [{ type: 'text', text: `authenticated as the vault credential (call ${calls.length})` }],
        };
      return { content: [{ type: 'text', text: `echo: ${String(request.params.arguments?.text)}` }] };
    });
    return server;
  };

  const host = await hostMcpOverHttp({
    newServer: mcpServer,
    refuse: (req, res) => {
      seenAuthorization.push(req.headers.authorization);
      if (req.headers.authorization === `Bearer ${accepted()}`) return false;
      res
        .writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' })
        .end('{"error":"unauthorized"}');
      return true;
    },
    onSessionOpened: () => {
      opened += 1;
    },
  });
  return {
    url: host.url,
    port: host.port,
    seenAuthorization,
    calls,
    sessionsOpened: () => opened,
    close: () => host.close(),
  };
}

/** TCP connections a process holds to a local port: its socket descriptors matched to the kernel's table. */
export function openConnectionsTo(pid: number, port: number): number {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const link = readlinkSync(`/proc/${pid}/fd/${fd}`);
      const match = /^socket:\[(\d+)\]$/.exec(link);
      if (match) inodes.add(match[1]!);
    } catch {
      // The descriptor closed while we looked.
    }
  }
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  let count = 0;
  for (const table of [`/proc/${pid}/net/tcp`, `/proc/${pid}/net/tcp6`]) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10) continue;
      const remotePort = fields[2]!.split(':')[1];
      // Any state counts (a half-closed socket still held is a leak); sockets no descriptor holds have inode 0.
      if (remotePort === hexPort && inodes.has(fields[9]!)) count += 1;
    }
  }
  return count;
}
