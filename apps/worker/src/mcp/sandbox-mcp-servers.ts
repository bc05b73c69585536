import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { AppError, HandsSubjects, type HandsMcpOutput, type HandsMcpRequest } from '@agentry/contracts';
import { LOGGER, NatsBus, type Logger } from '@agentry/platform';
import { SandboxCredentialsClient } from '../hands/sandbox-credentials.client.js';
import { SessionSandboxes } from '../hands/session-sandboxes.js';
import type { SessionSandbox } from '../sandbox/session-sandbox.js';
import { DurableWorkspaces } from '../workspace/durable-workspaces.js';
import { StdoutLines } from './stdout-lines.js';

const STDERR_TAIL_CHARS = 2_000;

/** One running stdio server: the process in the session's sandbox and where its output goes. */
interface Channel {
  tenantId: string;
  sessionId: string;
  server: string;
  child: ChildProcessWithoutNullStreams;
  sandbox: SessionSandbox;
  stderr: string;
  /** Output is published in order, each piece after the files the server changed are persisted. */
  publishing: Promise<void>;
}

type OpenRequest = Extract<HandsMcpRequest, { op: 'open' }>;

/**
 * The stdio MCP servers of the sessions this worker holds, each a process in its session's sandbox
 * (same limits and egress policy as `bash`), bridged to the Brain over NATS: one request per message
 * in, one publication per message out. A server lives until the Brain closes its channel, it exits, or
 * the session's sandbox is closed (idle, or the worker stopping).
 */
@Injectable()
export class SandboxMcpServers implements OnModuleDestroy {
  private readonly channels = new Map<string, Channel>();

  constructor(
    private readonly sandboxes: SessionSandboxes,
    private readonly durable: DurableWorkspaces,
    private readonly credentials: SandboxCredentialsClient,
    private readonly bus: NatsBus,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Servers running now (for tests and status). */
  get size(): number {
    return this.channels.size;
  }

  async handle(request: HandsMcpRequest): Promise<{ ok: true }> {
    if (request.op === 'open') await this.open(request);
    else if (request.op === 'send')
      this.send(request.channelId, request.tenantId, request.sessionId, request.message);
    else this.close(request.channelId);
    return { ok: true };
  }

  onModuleDestroy(): void {
    for (const id of [...this.channels.keys()]) this.close(id);
  }

  private async open(request: OpenRequest): Promise<void> {
    if (this.channels.has(request.channelId)) return;
    const { tenantId, sessionId, channelId } = request;
    if (request.bindingEpoch !== undefined) {
      await this.durable.enter(
        tenantId,
        sessionId,
        this.sandboxes.durableDirsOf(tenantId, sessionId),
        request.bindingEpoch,
        { tellsModel: false },
      );
    }
    // The session's credentials go with every use: the sandbox's egress proxy swaps them for all its processes.
    const credentials = await this.credentials.of(tenantId, sessionId);
    const { child, sandbox } = await this.sandboxes.use(
      tenantId,
      sessionId,
      request.networking,
      credentials,
      async (sandbox) => ({
        child: await sandbox.spawnServer(request.command, request.args, request.env),
        sandbox,
      }),
    );
    const channel: Channel = {
      tenantId,
      sessionId,
      server: request.server,
      child,
      sandbox,
      stderr: '',
      publishing: Promise.resolve(),
    };
    this.channels.set(channelId, channel);
    const lines = new StdoutLines();
    child.stdout.on('data', (chunk: Buffer) => {
      sandbox.touch();
      for (const line of lines.push(chunk)) this.output(channelId, channel, line);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      channel.stderr = (channel.stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    child.stdin.on('error', () => undefined); // the server may exit without reading
    child.once('exit', (code, signal) => {
      if (this.channels.get(channelId) === channel) this.channels.delete(channelId);
      const stderr = channel.stderr.trim();
      const reason = `the server exited (${signal ?? `code ${code}`})${stderr ? `; stderr: ${stderr.slice(-500)}` : ''}`;
      this.publish(channelId, channel, { type: 'exit', reason });
      this.logger.info({ sessionId, server: channel.server, code, signal }, 'stdio MCP server ended');
    });
    this.logger.info(
      { sessionId, server: request.server, pid: child.pid },
      'stdio MCP server started in the session sandbox',
    );
  }

  private send(
    channelId: string,
    tenantId: string,
    sessionId: string,
    message: Record<string, unknown>,
  ): void {
    const channel = this.channels.get(channelId);
    if (!channel || channel.tenantId !== tenantId || channel.sessionId !== sessionId) {
      throw new AppError('NOT_FOUND', 'The MCP server is not running on this worker');
    }
    channel.sandbox.touch();
    channel.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  private close(channelId: string): void {
    const channel = this.channels.get(channelId);
    if (!channel) return;
    this.channels.delete(channelId);
    try {
      if (channel.child.pid !== undefined) process.kill(-channel.child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }

  /** A line the server wrote: a JSON-RPC message, or noise that a stdio server must not write and is dropped. */
  private output(channelId: string, channel: Channel, line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.logger.warn(
        { sessionId: channel.sessionId, server: channel.server },
        'stdio MCP server wrote a line that is not JSON',
      );
      return;
    }
    this.publish(channelId, channel, { type: 'message', message }, isResponse(message));
  }

  private publish(channelId: string, channel: Channel, output: HandsMcpOutput, persistFirst = false): void {
    channel.publishing = channel.publishing.then(async () => {
      // A call's result leaves only once what the server wrote to the workspace is durable, as for tools.
      if (persistFirst) {
        await this.durable.leave(channel.tenantId, channel.sessionId, 'mcp').catch((err: unknown) => {
          this.logger.error(
            { sessionId: channel.sessionId, err },
            'session workspace changes could not be persisted',
          );
        });
      }
      this.bus.publish(HandsSubjects.mcpOutput(channelId), output);
    });
  }
}

function isResponse(message: unknown): boolean {
  return (
    typeof message === 'object' &&
    message !== null &&
    'id' in message &&
    ('result' in message || 'error' in message)
  );
}
