import { AppError } from '@agentry/contracts';
import type { McpServerConfig } from '../tools/tools-config.js';
import type { McpConnectionConfig } from './mcp-connection.config.js';

/** One `mcpServers` entry of tools.json, as the MCP mapper reads it. */
export type ToolsJsonMcpServer = McpServerConfig;

/** Turns the `mcpServers` record into connection configs: a command means stdio, a URL means Streamable HTTP. */
export function toMcpConnectionConfigs(servers: Record<string, ToolsJsonMcpServer>): McpConnectionConfig[] {
  return Object.entries(servers).map(([name, entry]): McpConnectionConfig => {
    const common = {
      name,
      ...(entry.enableTools ? { enableTools: entry.enableTools } : {}),
      ...(entry.timeout !== undefined ? { timeoutMs: entry.timeout } : {}),
    };
    const transport = entry.transport ?? (entry.command ? 'stdio' : 'http');
    if (transport === 'stdio') {
      if (!entry.command)
        throw new AppError('INVALID_REQUEST', `MCP server "${name}": stdio transport needs a command`);
      return {
        ...common,
        transport,
        command: entry.command,
        ...(entry.args ? { args: entry.args } : {}),
        ...(entry.env ? { env: entry.env } : {}),
      };
    }
    if (!entry.url || !URL.canParse(entry.url)) {
      throw new AppError('INVALID_REQUEST', `MCP server "${name}": ${transport} transport needs a valid url`);
    }
    const url = new URL(entry.url);
    for (const [key, value] of Object.entries(entry.queryParams ?? {})) url.searchParams.set(key, value);
    return {
      ...common,
      transport,
      url: url.toString(),
      ...(entry.headers ? { headers: entry.headers } : {}),
    };
  });
}
