import { randomBytes } from 'node:crypto';
import { HandsMcpOutputSchema, HandsSubjects } from '@agentry/contracts';
import type { McpStdioConnectionConfig, StdioBridge, StdioBridgeListener } from '@agentry/harness';
import type { NatsBus, RpcClient } from '@agentry/platform';
import type { HandsBindings } from '../hands/hands-bindings.js';
import type { HandsTarget } from '../hands/hands-tool-executor.js';
import { watchWorker } from '../hands/worker-watch.js';

export interface WorkerStdioBridgeDeps {
  rpc: RpcClient;
  bus: NatsBus;
  bindings: HandsBindings;
  /** How long the worker may take to answer one request (the open includes restoring the workspace). */
  requestTimeoutMs: number;
  livenessPollMs: number;
}

/**
 * One stdio MCP server of a session, run by the worker the session is bound to, in the session's sandbox:
 * opening binds the session (so a session that moved starts the server on its new worker), listens on a
 * fresh channel, then asks the worker to start the server. The server counts as gone when it exits, when
 * the worker stops answering or when its heartbeat lapses; the MCP connection reconnects on next use.
 */
export class WorkerStdioBridge implements StdioBridge {
  private readonly channelId = randomBytes(16).toString('base64url');
  private workerId = '';
  private listener: StdioBridgeListener | undefined;
  private stopListening: () => void = () => undefined;
  private ended = false;

  constructor(
    private readonly deps: WorkerStdioBridgeDeps,
    private readonly target: HandsTarget,
    private readonly config: McpStdioConnectionConfig,
  ) {}

  /** The worker running the server (empty before `open`). */
  get worker(): string {
    return this.workerId;
  }

  async open(listener: StdioBridgeListener): Promise<void> {
    const { rpc, bus, bindings } = this.deps;
    const binding = await bindings.bind(this.target.tenantId, this.target.sessionId);
    this.workerId = binding.workerId;
    this.listener = listener;
    const unsubscribe = bus.subscribe(HandsSubjects.mcpOutput(this.channelId), (payload) => {
      const output = HandsMcpOutputSchema.safeParse(payload);
      if (!output.success) return;
      if (output.data.type === 'message') listener.message(output.data.message);
      else this.end(output.data.reason);
    });
    const watch = watchWorker(bindings, this.workerId, this.deps.livenessPollMs);
    void watch.died.then(() => this.end('the worker running the server stopped'));
    this.stopListening = () => {
      unsubscribe();
      watch.stop();
    };
    try {
      // The worker must not answer before this channel is heard.
      await bus.flush();
      await rpc.request(
        HandsSubjects.mcpOn(this.workerId),
        {
          ...this.ids(),
          op: 'open',
          server: this.config.name,
          command: this.config.command,
          args: this.config.args ?? [],
          env: this.config.env ?? {},
          networking: this.target.networking,
          bindingEpoch: binding.epoch,
        },
        { timeoutMs: this.deps.requestTimeoutMs },
      );
    } catch (error) {
      this.ended = true;
      this.stopListening();
      throw error;
    }
  }

  async send(message: Record<string, unknown>): Promise<void> {
    try {
      await this.deps.rpc.request(
        HandsSubjects.mcpOn(this.workerId),
        { ...this.ids(), op: 'send', message },
        { timeoutMs: this.deps.requestTimeoutMs },
      );
    } catch (error) {
      this.end(
        `the worker could not pass the message on: ${error instanceof Error ? error.message : String(error)}`,
      );
      throw error;
    }
  }

  async close(): Promise<void> {
    const wasOpen = !this.ended;
    this.ended = true;
    this.stopListening();
    if (wasOpen && this.workerId) {
      await this.deps.rpc
        .request(
          HandsSubjects.mcpOn(this.workerId),
          { ...this.ids(), op: 'close' },
          { timeoutMs: this.deps.requestTimeoutMs },
        )
        .catch(() => undefined);
    }
  }

  private ids() {
    return { tenantId: this.target.tenantId, sessionId: this.target.sessionId, channelId: this.channelId };
  }

  private end(reason: string): void {
    if (this.ended) return;
    this.ended = true;
    this.stopListening();
    this.listener?.exit(reason);
  }
}
