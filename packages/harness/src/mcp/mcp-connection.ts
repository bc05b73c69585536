import { AppError } from '@agentry/contracts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  ElicitRequestSchema,
  ErrorCode,
  McpError,
  UrlElicitationRequiredError,
  type CallToolResult,
  type ElicitRequest,
  type ElicitResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import {
  connectTimeoutOf,
  DEFAULT_MCP_CALL_TIMEOUT_MS,
  type McpConnectionConfig,
} from './mcp-connection.config.js';
import { createMcpTransport, type McpTransportHandle } from './mcp-transport.factory.js';
import type { StdioBridgeFactory } from './stdio-bridge.transport.js';

/** Upper bound on tools/list pages, so a misbehaving server cannot loop us forever. */
const MAX_LIST_PAGES = 50;

/** What a server asked the user to do at a link (MCP URL elicitation) before it can finish a call. */
export interface McpUrlElicitation {
  message: string;
  url: string;
}

/** A call the server could not finish until the user acts at a link. */
export interface McpElicitedCall {
  elicitation: McpUrlElicitation;
}

export function isElicitedCall(result: object): result is McpElicitedCall {
  return 'elicitation' in result && !('content' in result);
}

/**
 * One MCP server: connects on first use, notices when the server goes away (process exit, closed stream) and
 * reconnects on the next use. Failures surface as MCP_CONNECTION_FAILED, TIMEOUT or ABORTED, never as a hang.
 */
export class McpConnection {
  private client: Client | undefined;
  private handle: McpTransportHandle | undefined;
  private connecting: Promise<Client> | undefined;
  private closed = false;
  private lastExit: string | undefined;
  /** Calls under way; a URL elicitation that arrives during them is theirs. */
  private readonly calls = new Set<{ asked?: McpUrlElicitation }>();

  constructor(
    readonly config: McpConnectionConfig,
    private readonly clientInfo: { name: string; version: string } = { name: 'agentry', version: '0.1.0' },
    private readonly stdioBridge?: StdioBridgeFactory,
  ) {}

  get connected(): boolean {
    return this.client !== undefined;
  }

  /** Child process id of a connected stdio server. */
  get pid(): number | null {
    return this.handle?.pid() ?? null;
  }

  connect(): Promise<Client> {
    if (this.closed) return Promise.reject(this.failure('the MCP manager is closed'));
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  async listTools(): Promise<Tool[]> {
    const client = await this.connect();
    const tools: Tool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const result = await this.guard(() =>
        client.listTools(cursor ? { cursor } : undefined, { timeout: connectTimeoutOf(this.config) }),
      );
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    return tools;
  }

  /**
   * Calls a tool. When the server asks the user to act at a link first (an `elicitation/create` in URL mode
   * during the call, or a URLElicitationRequired error), the answer is what it asked: the user's answer comes
   * much later, so the server is told `cancel` now and the call is made again once the user accepts.
   */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<CallToolResult | { toolResult: unknown } | McpElicitedCall> {
    const client = await this.connect();
    const timeout = this.config.timeoutMs ?? DEFAULT_MCP_CALL_TIMEOUT_MS;
    const call: { asked?: McpUrlElicitation } = {};
    this.calls.add(call);
    try {
      const result = await this.guard(
        () =>
          (
            client.callTool({ name, arguments: args }, undefined, {
              timeout,
              ...(signal ? { signal } : {}),
            }) as Promise<CallToolResult>
          ).catch((error: unknown) => {
            const required = error instanceof UrlElicitationRequiredError ? error.elicitations[0] : undefined;
            if (required) call.asked ??= { message: required.message, url: required.url };
            // How the server ended a call it had asked about does not matter: the call is made again.
            if (!call.asked) throw error;
            return undefined;
          }),
        signal,
      );
      return call.asked ? { elicitation: call.asked } : result!;
    } finally {
      this.calls.delete(call);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.connecting?.catch(() => undefined);
    const client = this.client;
    this.client = undefined;
    // Client.close closes the transport, which ends a stdio child (stdin close, then SIGTERM, then SIGKILL).
    await client?.close().catch(() => undefined);
  }

  private async open(): Promise<Client> {
    try {
      return await this.openWith(undefined);
    } catch (error) {
      if (!fallsBackToSse(this.config, error)) throw error;
      return this.openWith('sse');
    }
  }

  private async openWith(remoteTransport: 'sse' | undefined): Promise<Client> {
    let handle: McpTransportHandle;
    try {
      handle = await createMcpTransport(this.config, remoteTransport, this.stdioBridge);
    } catch (error) {
      throw this.failure(
        `cannot create the ${this.config.transport} transport: ${describe(error, undefined)}`,
        error,
      );
    }
    // URL mode only: a form would ask the user for data through the model's platform, which this client never does.
    const client = new Client(this.clientInfo, { capabilities: { elicitation: { url: {} } } });
    client.setRequestHandler(ElicitRequestSchema, (request) => this.elicited(request));
    const timeoutMs = connectTimeoutOf(this.config);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(this.failure(`no answer to initialize within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      await Promise.race([client.connect(handle.transport, { timeout: timeoutMs }), timeout]);
    } catch (error) {
      await client.close().catch(() => undefined);
      if (AppError.is(error)) throw error;
      const status = httpStatusOf(error);
      if (status === 401 || status === 403) {
        throw this.failure(
          `the server refused the connection as unauthorized (HTTP ${status}); a credential for ${serverAddress(this.config)} is missing or was not accepted`,
          error,
        );
      }
      throw this.failure(`cannot connect: ${describe(error, handle)}`, error);
    } finally {
      clearTimeout(timer);
    }
    client.onclose = () => {
      if (this.client === client) {
        this.client = undefined;
        const stderr = handle.stderrTail();
        this.lastExit = `the server went away${stderr ? ` (stderr: ${stderr.slice(-500)})` : ''}`;
      }
    };
    if (this.closed) {
      await client.close().catch(() => undefined);
      throw this.failure('the MCP manager is closed');
    }
    this.client = client;
    this.handle = handle;
    this.lastExit = undefined;
    return client;
  }

  /** A URL elicitation belongs to the calls under way; they wait for the user, so the server hears `cancel`. */
  private elicited(request: ElicitRequest): ElicitResult {
    const params = request.params;
    if (params.mode !== 'url') return { action: 'decline' };
    for (const call of this.calls) call.asked ??= { message: params.message, url: params.url };
    return { action: 'cancel' };
  }

  private async guard<T>(request: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (signal?.aborted)
        throw new AppError('ABORTED', `MCP call to "${this.config.name}" was aborted`, { cause: error });
      if (error instanceof McpError && codeOf(error) === ErrorCode.RequestTimeout) {
        throw new AppError('TIMEOUT', `MCP server "${this.config.name}" did not answer in time`, {
          cause: error,
          retryable: true,
          details: { server: this.config.name },
        });
      }
      // The server answered with a protocol error (unknown tool, invalid params): the connection is fine.
      if (error instanceof McpError && codeOf(error) !== ErrorCode.ConnectionClosed) {
        throw new AppError('TOOL_FAILED', error.message, {
          cause: error,
          details: { server: this.config.name, mcpCode: error.code },
        });
      }
      throw this.failure(this.lastExit ?? `connection lost: ${describe(error, this.handle)}`, error);
    }
  }

  private failure(reason: string, cause?: unknown): AppError {
    return new AppError('MCP_CONNECTION_FAILED', `MCP server "${this.config.name}": ${reason}`, {
      cause,
      retryable: true,
      details: { server: this.config.name, transport: this.config.transport },
    });
  }
}

/** Servers from before Streamable HTTP answer its POST with 400, 404 or 405 (the MCP spec's compatibility rule). */
const PRE_STREAMABLE_STATUSES = new Set([400, 404, 405]);

function fallsBackToSse(config: McpConnectionConfig, error: unknown): boolean {
  if (config.transport !== 'http' || !config.sseFallback) return false;
  const status = httpStatusOf(error instanceof Error ? error.cause : undefined);
  return status !== undefined && PRE_STREAMABLE_STATUSES.has(status);
}

/** The HTTP status the SDK's transport errors carry as `code` (JSON-RPC errors carry negative codes). */
function httpStatusOf(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'number' && code >= 100 && code < 600 ? code : undefined;
}

/** Where a server lives, without query or credentials, for messages. */
function serverAddress(config: McpConnectionConfig): string {
  if (config.transport === 'stdio') return config.command;
  const url = new URL(config.url);
  return `${url.origin}${url.pathname}`;
}

function describe(error: unknown, handle: McpTransportHandle | undefined): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
  const stderr = handle?.stderrTail();
  return `${message}${cause}${stderr ? `; stderr: ${stderr.slice(-500)}` : ''}`;
}

/** An MCP error's code as the SDK's enum (the SDK types the field as a plain number). */
const codeOf = (error: McpError): ErrorCode => error.code;
