import { AppError } from '@agentry/contracts';
import type { HarnessTool } from '../tools/tool.js';
import { McpConnection } from './mcp-connection.js';
import {
  validateMcpConnectionConfigs,
  type McpConnectionConfig,
  type McpFetch,
} from './mcp-connection.config.js';
import { toHarnessTool, type McpToolOptions } from './mcp-tool.adapter.js';
import type { StdioBridgeFactory } from './stdio-bridge.transport.js';

export interface McpManagerOptions extends McpToolOptions {
  /** Sent to servers in `initialize`. */
  clientInfo?: { name: string; version: string };
  /** Runs stdio servers through a bridge (on the session's Hands) instead of as children of this process. */
  stdioBridge?: StdioBridgeFactory;
  /** The fetch of remote servers configured without one (an egress check). */
  remoteFetch?: McpFetch;
}

export interface McpToolListing {
  tools: HarnessTool[];
  /** Servers that could not be reached; their tools are missing from `tools`. */
  failures: Array<{ server: string; error: AppError }>;
}

/** Owns the MCP servers of one harness: lazy connections, tool listing, and shutdown of stdio children. */
export class McpManager {
  private readonly connections = new Map<string, McpConnection>();

  constructor(
    servers: McpConnectionConfig[],
    private readonly options: McpManagerOptions = {},
  ) {
    validateMcpConnectionConfigs(servers);
    for (const config of servers) {
      const { remoteFetch } = options;
      const configured =
        config.transport !== 'stdio' && !config.fetch && remoteFetch
          ? { ...config, fetch: remoteFetch }
          : config;
      this.connections.set(
        config.name,
        new McpConnection(configured, options.clientInfo, options.stdioBridge),
      );
    }
  }

  get serverNames(): string[] {
    return [...this.connections.keys()];
  }

  /** The connection of one server (for status and tests); undefined for an unknown name. */
  connection(server: string): McpConnection | undefined {
    return this.connections.get(server);
  }

  /** Tools of one server, connecting to it if needed; throws MCP_CONNECTION_FAILED when it cannot be reached. */
  async toolsOf(server: string): Promise<HarnessTool[]> {
    const connection = this.connections.get(server);
    if (!connection) throw new AppError('NOT_FOUND', `No MCP server named "${server}"`);
    const enabled = connection.config.enableTools ? new Set(connection.config.enableTools) : undefined;
    const tools = await connection.listTools();
    return tools
      .filter((tool) => !enabled || enabled.has(tool.name))
      .map((tool) => toHarnessTool(connection, tool, this.options));
  }

  /** Tools of every server, listed in parallel; one unreachable server does not hide the others. */
  async listTools(): Promise<McpToolListing> {
    const results = await Promise.allSettled(this.serverNames.map((server) => this.toolsOf(server)));
    const listing: McpToolListing = { tools: [], failures: [] };
    results.forEach((result, index) => {
      const server = this.serverNames[index] ?? '';
      if (result.status === 'fulfilled') listing.tools.push(...result.value);
      else {
        const error = AppError.is(result.reason)
          ? result.reason
          : new AppError('MCP_CONNECTION_FAILED', `MCP server "${server}": ${String(result.reason)}`, {
              cause: result.reason,
            });
        listing.failures.push({ server, error });
      }
    });
    return listing;
  }

  /** Closes every connection; stdio servers are terminated. */
  async close(): Promise<void> {
    await Promise.all([...this.connections.values()].map((connection) => connection.close()));
  }
}
