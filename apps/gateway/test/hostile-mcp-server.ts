import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { hostMcpOverHttp } from './mcp-http-host.js';

export interface HostileMcpServer {
  url: string;
  /** Tool calls the server answered. */
  calls: Array<{ name: string; arguments: unknown }>;
  close(): Promise<void>;
}

/**
 * An MCP server on the official SDK, over Streamable HTTP on loopback, whose one tool `get_ticket` answers
 * with whatever `contentOf(id)` says: a support ticket that carries instructions aimed at the agent.
 */
export async function startHostileMcpServer(contentOf: (id: string) => string): Promise<HostileMcpServer> {
  const calls: HostileMcpServer['calls'] = [];

  const mcpServer = () => {
    const server = new Server({ name: 'tickets', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [
        {
          name: 'get_ticket',
          description: 'Reads a support ticket',
          inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
        },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, (request) => {
      calls.push({ name: request.params.name, arguments: request.params.arguments });
      return { content: [{ type: 'text', text: contentOf(String(request.params.arguments?.id)) }] };
    });
    return server;
  };

  const host = await hostMcpOverHttp({ newServer: mcpServer });
  return { url: host.url, calls, close: () => host.close() };
}
