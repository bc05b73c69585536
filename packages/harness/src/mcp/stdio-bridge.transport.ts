import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { McpStdioConnectionConfig } from './mcp-connection.config.js';

/** What the far end of a bridge reports while the server runs: each JSON-RPC message it wrote, then its exit. */
export interface StdioBridgeListener {
  message(message: unknown): void;
  /** The server is gone (it exited, or its host did); `reason` may carry the tail of its stderr. */
  exit(reason: string): void;
}

/**
 * A stdio MCP server run somewhere else (a session's sandbox on a worker), reached through a message
 * bridge: `open` starts it, `send` writes one JSON-RPC message to its stdin, `close` ends it.
 */
export interface StdioBridge {
  open(listener: StdioBridgeListener): Promise<void>;
  send(message: JSONRPCMessage): Promise<void>;
  close(): Promise<void>;
}

/** Builds the bridge of one stdio server; given to the MCP manager by the process embedding the harness. */
export type StdioBridgeFactory = (config: McpStdioConnectionConfig) => StdioBridge;

/**
 * The MCP client transport over a StdioBridge, so the official SDK Client speaks to a server it did not
 * spawn. Messages from the far end are checked as JSON-RPC before the client sees them.
 */
export class StdioBridgeTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private closed = false;
  private exitReason = '';

  constructor(private readonly bridge: StdioBridge) {}

  /** Why the server went away, as its host reported it. */
  get lastExit(): string {
    return this.exitReason;
  }

  async start(): Promise<void> {
    await this.bridge.open({
      message: (raw) => {
        const parsed = JSONRPCMessageSchema.safeParse(raw);
        if (parsed.success) this.onmessage?.(parsed.data);
        else this.onerror?.(new Error('the MCP server wrote a message that is not JSON-RPC'));
      },
      exit: (reason) => {
        this.exitReason = reason;
        this.finish();
      },
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed)
      throw new Error(`the MCP server is not running${this.exitReason ? ` (${this.exitReason})` : ''}`);
    await this.bridge.send(message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.bridge.close().catch(() => undefined);
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}
