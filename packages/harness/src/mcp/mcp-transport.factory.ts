import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpConnectionConfig, McpFetch } from './mcp-connection.config.js';
import { StdioBridgeTransport, type StdioBridgeFactory } from './stdio-bridge.transport.js';

const STDERR_TAIL_CHARS = 2_000;

// The HTTP transports are loaded on first use: they pull in the eventsource packages, which a process that
// only runs stdio servers never needs. The SSE module is named through a variable so the type checker does
// not follow its declarations into `eventsource` sources.
const SSE_TRANSPORT_MODULE: string = '@modelcontextprotocol/sdk/client/sse.js';
type SseTransportConstructor = new (
  url: URL,
  options?: { requestInit?: RequestInit; fetch?: McpFetch },
) => Transport;

export interface McpTransportHandle {
  transport: Transport;
  /** Last lines a stdio server wrote to stderr: the best clue when it dies. */
  stderrTail(): string;
  /** Child process id of a stdio server. */
  pid(): number | null;
}

/**
 * `remoteTransport` overrides the configured HTTP transport (the SSE fallback of a Streamable HTTP server).
 * With `stdioBridge`, a stdio server runs wherever the bridge starts it, never as a child of this process.
 */
export async function createMcpTransport(
  config: McpConnectionConfig,
  remoteTransport?: 'sse' | 'http',
  stdioBridge?: StdioBridgeFactory,
): Promise<McpTransportHandle> {
  if (config.transport === 'stdio' && stdioBridge) {
    const transport = new StdioBridgeTransport(stdioBridge(config));
    return { transport, stderrTail: () => transport.lastExit, pid: () => null };
  }
  if (config.transport === 'stdio') {
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args ?? [],
      // The SDK merges this over its minimal default environment, so parent secrets do not leak to the server.
      env: config.env ?? {},
      ...(config.cwd ? { cwd: config.cwd } : {}),
      stderr: 'pipe',
    });
    let tail = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      tail = (tail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    return { transport, stderrTail: () => tail.trim(), pid: () => transport.pid };
  }
  // Both SDK transports send requestInit headers on every request, including the SSE stream's GET.
  const requestInit: RequestInit = { headers: config.headers ?? {} };
  const url = new URL(config.url);
  const fetchOption = config.fetch ? { fetch: config.fetch } : {};
  let transport: Transport;
  if ((remoteTransport ?? config.transport) === 'sse') {
    const { SSEClientTransport } = (await import(SSE_TRANSPORT_MODULE)) as {
      SSEClientTransport: SseTransportConstructor;
    };
    transport = new SSEClientTransport(url, { requestInit, ...fetchOption });
  } else {
    const { StreamableHTTPClientTransport } =
      await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    transport = new StreamableHTTPClientTransport(url, { requestInit, ...fetchOption });
  }
  return { transport, stderrTail: () => '', pid: () => null };
}
