import { AppError } from '@agentry/contracts';

interface McpServerCommon {
  /** Unique per manager; becomes part of tool names (`mcp__{name}__{tool}`) and the toolset (`mcp:{name}`). */
  name: string;
  /** Only these MCP tool names are exposed; all when absent. */
  enableTools?: string[];
  /** Per tool call (default 60 s). */
  timeoutMs?: number;
  /** For connecting and initializing (default: timeoutMs, at most 30 s). */
  connectTimeoutMs?: number;
}

export interface McpStdioConnectionConfig extends McpServerCommon {
  transport: 'stdio';
  command: string;
  args?: string[];
  /** Added to a minimal default environment (PATH, HOME...), never the whole parent environment. */
  env?: Record<string, string>;
  cwd?: string;
}

export interface McpRemoteConnectionConfig extends McpServerCommon {
  /** `sse` is the legacy HTTP+SSE transport; `http` is Streamable HTTP. */
  transport: 'sse' | 'http';
  url: string;
  headers?: Record<string, string>;
  /** With `http`: when the server answers the Streamable HTTP handshake with 400, 404 or 405, try legacy SSE. */
  sseFallback?: boolean;
  /** Every request of the connection goes through it (an egress check, a private connection pool...). */
  fetch?: McpFetch;
}

/** The fetch signature the MCP SDK transports accept. */
export type McpFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

export type McpConnectionConfig = McpStdioConnectionConfig | McpRemoteConnectionConfig;

export const DEFAULT_MCP_CALL_TIMEOUT_MS = 60_000;
const MAX_DEFAULT_CONNECT_TIMEOUT_MS = 30_000;

export function connectTimeoutOf(config: McpConnectionConfig): number {
  return (
    config.connectTimeoutMs ??
    Math.min(config.timeoutMs ?? DEFAULT_MCP_CALL_TIMEOUT_MS, MAX_DEFAULT_CONNECT_TIMEOUT_MS)
  );
}

/** Rejects configurations that could never connect, with a message naming the server and the field. */
export function validateMcpConnectionConfigs(configs: McpConnectionConfig[]): void {
  const seen = new Set<string>();
  for (const config of configs) {
    const fail = (message: string) =>
      new AppError('INVALID_REQUEST', `MCP server "${config.name}": ${message}`);
    if (!config.name || !/^[A-Za-z0-9_-]+$/.test(config.name))
      throw fail('name must be letters, digits, "_" or "-"');
    if (seen.has(config.name)) throw fail('name is used twice');
    seen.add(config.name);
    if (config.transport === 'stdio') {
      if (!config.command) throw fail('stdio transport needs a command');
    } else if (config.transport === 'sse' || config.transport === 'http') {
      if (!URL.canParse(config.url)) throw fail(`url "${config.url}" is not a valid URL`);
    } else {
      throw fail(`unknown transport "${String((config as { transport: unknown }).transport)}"`);
    }
  }
}
