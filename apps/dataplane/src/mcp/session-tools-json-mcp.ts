import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { AppError } from '@agentry/contracts';
import {
  EgressGuard,
  McpManager,
  mcpToolName,
  mcpToolToHarnessTool,
  toMcpConnectionConfigs,
  type HarnessTool,
  type McpConnectionConfig,
  type ToolsJsonMcpServer,
} from '@agentry/harness';
import { CLOCK, LOGGER, NatsBus, REDIS, RpcClient, type Clock, type Logger } from '@agentry/platform';
import type { Redis } from 'ioredis';
import { DATAPLANE_CONFIG, type DataplaneEnv } from '../config/env.js';
import { HandsBindings } from '../hands/hands-bindings.js';
import { runsOnClusterWorker, type HandsTarget } from '../hands/hands-tool-executor.js';
import { egressCheckedFetch } from './egress-checked-fetch.js';
import { EndedSessionsRepository } from './ended-sessions.repository.js';
import { PooledMcpSessions, type PooledServers } from './pooled-mcp-sessions.js';
import { WorkerStdioBridge, type WorkerStdioBridgeDeps } from './worker-stdio-bridge.js';

/** The open servers of one session, for the tools.json they were opened from. */
interface SessionServers extends PooledServers {
  key: string;
  configs: McpConnectionConfig[];
  /** The worker the session was bound to when they opened; a session that moved gets a fresh set. */
  workerId: string | null;
}

/**
 * The MCP servers of the agent workspace's `tools.json`, kept per session across turns. A stdio server
 * never runs in this process: it runs in the session's sandbox on the worker holding the session, and
 * this process only speaks MCP to it over the worker bridge. Environments without a cluster sandbox get
 * no stdio servers. URL servers are reached from here through the same egress guard as `web_fetch`.
 * Servers close after AGENTRY_MCP_IDLE_TIMEOUT_MS without use, or once the session has ended.
 */
@Injectable()
export class SessionToolsJsonMcp implements OnModuleInit, OnModuleDestroy {
  private readonly pool: PooledMcpSessions<SessionServers>;
  private readonly bindings: HandsBindings;
  private readonly guard: EgressGuard;
  private readonly bridgeDeps: WorkerStdioBridgeDeps;

  constructor(
    rpc: RpcClient,
    bus: NatsBus,
    endedSessions: EndedSessionsRepository,
    @Inject(DATAPLANE_CONFIG) private readonly config: DataplaneEnv,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(REDIS) redis: Redis,
    @Inject(CLOCK) clock: Clock,
  ) {
    this.bindings = new HandsBindings(
      redis,
      config.AGENTRY_HANDS_BINDING_LEASE_MS,
      clock,
      config.AGENTRY_HANDS_WORKER_WAIT_MS,
    );
    this.guard = new EgressGuard({ allowPrivateNetworks: config.AGENTRY_EGRESS_ALLOW_PRIVATE_NETWORKS });
    this.bridgeDeps = {
      rpc,
      bus,
      bindings: this.bindings,
      requestTimeoutMs: config.AGENTRY_MCP_CONNECT_TIMEOUT_MS,
      livenessPollMs: 1_000,
    };
    this.pool = new PooledMcpSessions({
      what: 'tools.json MCP servers',
      idleTimeoutMs: config.AGENTRY_MCP_IDLE_TIMEOUT_MS,
      endedCheckMs: config.AGENTRY_MCP_ENDED_CHECK_MS,
      endedSessions,
      logger,
    });
  }

  /** Sessions with open tools.json servers in this process. */
  get size(): number {
    return this.pool.size;
  }

  /** The tools of the session's tools.json servers for one turn; a server that cannot be reached gives none. */
  async toolsFor(target: HandsTarget, servers: Record<string, ToolsJsonMcpServer>): Promise<HarnessTool[]> {
    let configs: McpConnectionConfig[];
    try {
      // A server without its own `timeout` gets the installation's, like the agent's MCP servers.
      const timeouts = {
        timeoutMs: this.config.AGENTRY_MCP_CALL_TIMEOUT_MS,
        connectTimeoutMs: this.config.AGENTRY_MCP_CONNECT_TIMEOUT_MS,
      };
      configs = toMcpConnectionConfigs(servers).map((c) => ({ ...timeouts, ...c }));
    } catch (error) {
      this.logger.warn(
        { sessionId: target.sessionId, err: (error as Error).message },
        'tools.json MCP servers left out',
      );
      return [];
    }
    if (!runsOnClusterWorker(target.environmentType)) {
      for (const c of configs.filter((c) => c.transport === 'stdio')) {
        this.logger.warn(
          { sessionId: target.sessionId, server: c.name },
          'stdio MCP server left out: only sessions with a sandbox on a worker run them',
        );
      }
      configs = configs.filter((c) => c.transport !== 'stdio');
    }
    if (configs.length === 0) {
      await this.close(target.sessionId);
      return [];
    }
    const workerId = configs.some((c) => c.transport === 'stdio') ? await this.boundWorker(target) : null;
    let session: SessionServers;
    try {
      session = await this.sessionFor(target, configs, workerId);
    } catch (error) {
      this.logger.warn(
        { sessionId: target.sessionId, err: (error as Error).message },
        'tools.json MCP servers left out',
      );
      return [];
    }
    return this.pool.whileBusy(target.sessionId, session, async () => {
      const listing = await session.manager.listTools();
      const tools = listing.tools.map((tool) => this.callable(target, session, tool));
      for (const { server, error } of listing.failures) {
        this.logger.warn(
          { sessionId: target.sessionId, server, code: error.code, err: error.message },
          'MCP server could not be reached',
        );
        const named = configs.find((c) => c.name === server)?.enableTools ?? [];
        tools.push(...named.map((name) => this.standIn(target, session, server, name)));
      }
      return tools;
    });
  }

  close(sessionId: string): Promise<void> {
    return this.pool.close(sessionId);
  }

  onModuleInit(): void {
    this.pool.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.pool.stop();
  }

  closeEnded(): Promise<void> {
    return this.pool.closeEnded();
  }

  /** The worker holding the session now; null when none is alive (the stdio servers then fail to open). */
  private async boundWorker(target: HandsTarget): Promise<string | null> {
    try {
      return (await this.bindings.bind(target.tenantId, target.sessionId)).workerId;
    } catch {
      return null;
    }
  }

  private async sessionFor(
    target: HandsTarget,
    configs: McpConnectionConfig[],
    workerId: string | null,
  ): Promise<SessionServers> {
    const key = JSON.stringify(configs);
    const fits = (current: SessionServers) =>
      current.key === key && (workerId === null || current.workerId === workerId);
    return this.pool.obtain(target.sessionId, fits, () => this.open(target, key, configs, workerId));
  }

  private open(
    target: HandsTarget,
    key: string,
    configs: McpConnectionConfig[],
    workerId: string | null,
  ): SessionServers {
    const manager = new McpManager(configs, {
      clientInfo: { name: 'agentry', version: '0.1.0' },
      stdioBridge: (config) => new WorkerStdioBridge(this.bridgeDeps, target, config),
      remoteFetch: egressCheckedFetch(this.guard),
    });
    return { key, configs, manager, workerId, busy: 0 };
  }

  /**
   * A listed tool as the model sees it. A call runs on the session's live servers, reopening them if they
   * closed (idle) while the model was thinking, and keeps them open until it returns.
   */
  private callable(target: HandsTarget, session: SessionServers, tool: HarnessTool): HarnessTool {
    const server = tool.toolset?.slice('mcp:'.length) ?? '';
    const execute: HarnessTool['execute'] = async (input, context) => {
      const live =
        this.pool.current(target.sessionId) === session
          ? session
          : await this.sessionFor(target, session.configs, null);
      const run =
        live === session ? tool : (await live.manager.toolsOf(server)).find((t) => t.name === tool.name);
      if (!run)
        throw new AppError('MCP_CONNECTION_FAILED', `MCP server "${server}" no longer offers ${tool.name}`);
      return this.pool.whileBusy(target.sessionId, live, () => run.execute(input, context));
    };
    return { ...tool, execute };
  }

  /** A tool tools.json names on a server that could not be reached: calling it tries again and reports why it failed. */
  private standIn(target: HandsTarget, session: SessionServers, server: string, name: string): HarnessTool {
    const described = {
      name,
      description: `${name} on MCP server ${server} (the server could not be reached to describe it)`,
      inputSchema: { type: 'object' as const },
    };
    const connection = session.manager.connection(server)!;
    const tool = { ...mcpToolToHarnessTool(connection, described), name: mcpToolName(server, name) };
    return this.callable(target, session, tool);
  }
}
