import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import {
  AppError,
  type McpServerCredential,
  type SessionAgent,
  type SessionErrorObject,
} from '@agentry/contracts';
import {
  EgressGuard,
  McpManager,
  mcpToolToHarnessTool,
  type HarnessTool,
  type McpConnection,
  type McpFetch,
  type McpRemoteConnectionConfig,
} from '@agentry/harness';
import { CLOCK, LOGGER, type Clock, type Logger } from '@agentry/platform';
import { DATAPLANE_CONFIG, type DataplaneEnv } from '../config/env.js';
import { agentMcpServers, type AgentMcpServer } from './agent-mcp-servers.js';
import { egressCheckedFetch } from './egress-checked-fetch.js';
import { EndedSessionsRepository } from './ended-sessions.repository.js';
import { McpCredentialsClient } from './mcp-credentials.client.js';
import { PooledMcpSessions, type PooledServers } from './pooled-mcp-sessions.js';
import { VaultBearer, type CredentialFailure } from './vault-bearer.js';

/** A tool as an MCP server describes it. */
type McpTool = Awaited<ReturnType<McpConnection['listTools']>>[number];

export interface McpSessionRef {
  tenantId: string;
  /** Whose connections these are: a session, or one thread of it (each thread runs its own agent). */
  sessionId: string;
  /** The session whose `vault_ids` hold the credentials, when not `sessionId` (a thread uses its session's). */
  vaultSessionId?: string;
}

/** Writes a `session.error` into the turn under way (a credential the user must fix). */
export type SessionErrorReporter = (error: SessionErrorObject) => Promise<void>;

/** The live connections of one session, and the tools each server listed. */
interface SessionServers extends PooledServers {
  /** The server set they were opened for; a session whose agent changes gets a fresh set. */
  key: string;
  servers: AgentMcpServer[];
  listed: Map<string, McpTool[]>;
  /** The reporter of the session's current turn; connections outlive turns, so each turn sets its own. */
  report?: SessionErrorReporter;
  /**
   * A server asked the user for consent: the set is opened again, with the credentials as they stand then,
   * before its next use (a consent the user completes can leave a new token in their vault).
   */
  stale?: boolean;
}

/**
 * The agent's URL MCP servers, connected once per session and kept across its turns: the first turn
 * connects (with the session's vault credentials, through the egress guard) and lists tools; later turns
 * reuse both. Connections close when the session has been idle for AGENTRY_MCP_IDLE_TIMEOUT_MS (and reopen on
 * its next turn), or once it is archived, deleted or terminated (looked for every AGENTRY_MCP_ENDED_CHECK_MS),
 * so nothing is held per turn and nothing outlives an idle or ended session.
 */
@Injectable()
export class SessionMcpPool implements OnModuleInit, OnModuleDestroy {
  private readonly pool: PooledMcpSessions<SessionServers>;
  private readonly fetch: McpFetch;

  constructor(
    private readonly credentials: McpCredentialsClient,
    endedSessions: EndedSessionsRepository,
    @Inject(DATAPLANE_CONFIG) private readonly config: DataplaneEnv,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.fetch = egressCheckedFetch(
      new EgressGuard({ allowPrivateNetworks: config.AGENTRY_EGRESS_ALLOW_PRIVATE_NETWORKS }),
    );
    this.pool = new PooledMcpSessions({
      what: 'MCP connections',
      idleTimeoutMs: config.AGENTRY_MCP_IDLE_TIMEOUT_MS,
      endedCheckMs: config.AGENTRY_MCP_ENDED_CHECK_MS,
      endedSessions,
      logger,
    });
  }

  /** Sessions with open MCP connections in this process. */
  get size(): number {
    return this.pool.size;
  }

  /**
   * The tools of the agent's MCP servers for one turn. A server that cannot be reached is left out, except
   * for the tools its toolset names, which stay offered and answer with the connection error when called.
   */
  async toolsFor(
    ref: McpSessionRef,
    agent: SessionAgent,
    report?: SessionErrorReporter,
  ): Promise<HarnessTool[]> {
    const { servers, skipped } = agentMcpServers(agent);
    for (const s of skipped)
      this.logger.warn({ sessionId: ref.sessionId, server: s.name }, `MCP server left out: ${s.reason}`);
    if (servers.length === 0) {
      await this.close(ref.sessionId);
      return [];
    }
    let session: SessionServers;
    try {
      session = await this.sessionFor(ref, servers);
      session.report = report;
    } catch (error) {
      // A configuration no connection can be made from (two servers of one name) must not fail the turn.
      this.logger.warn({ sessionId: ref.sessionId, err: (error as Error).message }, 'MCP servers left out');
      return [];
    }
    return this.pool.whileBusy(ref.sessionId, session, async () => {
      await this.listMissing(ref, session);
      const toolsOf = (server: AgentMcpServer) => session.listed.get(server.name) ?? standInsOf(server);
      return servers.flatMap((server) =>
        toolsOf(server).flatMap((tool) => this.callable(ref, session, server.name, tool)),
      );
    });
  }

  /** Closes a session's connections now (the session ended or its agent no longer has MCP servers). */
  close(sessionId: string): Promise<void> {
    return this.pool.close(sessionId);
  }

  onModuleInit(): void {
    this.pool.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.pool.stop();
  }

  /** Closes the connections of pooled sessions that have ended. */
  closeEnded(): Promise<void> {
    return this.pool.closeEnded();
  }

  private async sessionFor(ref: McpSessionRef, servers: AgentMcpServer[]): Promise<SessionServers> {
    const key = JSON.stringify(servers.map((s) => [s.name, s.url]));
    return this.pool.obtain(
      ref.sessionId,
      (current) => current.key === key && !current.stale,
      () => this.open(ref, key, servers),
    );
  }

  private async open(ref: McpSessionRef, key: string, servers: AgentMcpServer[]): Promise<SessionServers> {
    const vaultSessionId = ref.vaultSessionId ?? ref.sessionId;
    const credentials = await this.credentials
      .credentialsFor(
        ref.tenantId,
        vaultSessionId,
        servers.map((s) => s.url),
      )
      .catch((error: unknown) => {
        // Without credentials the servers that need them refuse the connection, which the model is told.
        this.logger.warn(
          { sessionId: ref.sessionId, err: (error as Error).message },
          'vault credentials for MCP servers could not be loaded',
        );
        return new Map<string, McpServerCredential>();
      });
    const configs = servers.map((server): McpRemoteConnectionConfig => {
      const credential = credentials.get(server.url);
      let fetch = this.fetch;
      if (credential) {
        const bearer = new VaultBearer(
          credential,
          server.name,
          (id) => this.credentials.refresh(ref.tenantId, vaultSessionId, id),
          this.clock,
        );
        bearer.onFailure = (failure) => this.reportFailure(ref, failure);
        fetch = bearer.fetch(this.fetch);
      }
      return {
        name: server.name,
        transport: 'http',
        sseFallback: true,
        url: server.url,
        fetch,
        timeoutMs: this.config.AGENTRY_MCP_CALL_TIMEOUT_MS,
        connectTimeoutMs: this.config.AGENTRY_MCP_CONNECT_TIMEOUT_MS,
      };
    });
    return {
      key,
      servers,
      manager: new McpManager(configs, { clientInfo: { name: 'agentry', version: '0.1.0' } }),
      listed: new Map(),
      busy: 0,
    };
  }

  /** A credential the user must fix, as a `session.error` of the turn under way (CMA's MCP authentication error). */
  private async reportFailure(ref: McpSessionRef, failure: CredentialFailure): Promise<void> {
    this.logger.warn(
      { sessionId: ref.sessionId, server: failure.serverName, credentialId: failure.credentialId },
      'MCP credential could not be refreshed',
    );
    await this.pool.current(ref.sessionId)?.report?.({
      type: 'mcp_authentication_failed_error',
      message: `MCP server "${failure.serverName}": ${failure.message}`,
      retry_status: { type: 'terminal' },
      mcp_server_name: failure.serverName,
    });
  }

  /** Lists the servers not listed yet, in parallel; a server that fails is tried again next turn. */
  private async listMissing(ref: McpSessionRef, session: SessionServers): Promise<void> {
    const missing = session.servers.filter((s) => !session.listed.has(s.name));
    await Promise.all(
      missing.map(async (server) => {
        try {
          const connection = session.manager.connection(server.name);
          if (connection) session.listed.set(server.name, await connection.listTools());
        } catch (error) {
          const failure = AppError.is(error) ? error : new AppError('MCP_CONNECTION_FAILED', String(error));
          this.logger.warn(
            { sessionId: ref.sessionId, server: server.name, code: failure.code, err: failure.message },
            'MCP server could not be reached',
          );
        }
      }),
    );
  }

  /**
   * One tool as the model sees it. A call finds the session's live connections when it runs, reopening them
   * if they closed while the model was thinking, and keeps them open until it returns.
   */
  private callable(
    ref: McpSessionRef,
    session: SessionServers,
    server: string,
    tool: McpTool,
  ): HarnessTool[] {
    const described = session.manager.connection(server);
    if (!described) return [];
    const execute: HarnessTool['execute'] = async (input, context) => {
      const live = await this.sessionFor(ref, session.servers);
      const connection = live.manager.connection(server);
      if (!connection)
        throw new AppError(
          'INTERNAL',
          `MCP server "${server}" has no connection in session ${ref.sessionId}`,
        );
      const outcome = await this.pool.whileBusy(ref.sessionId, live, () =>
        mcpToolToHarnessTool(connection, tool).execute(input, context),
      );
      if (outcome.status === 'pending' && outcome.elicitation) live.stale = true;
      return outcome;
    };
    return [{ ...mcpToolToHarnessTool(described, tool), execute }];
  }
}

/** The tools a toolset names, offered while their server cannot describe them; a call tries to connect. */
function standInsOf(server: AgentMcpServer): McpTool[] {
  return server.namedTools.map((name) => ({
    name,
    description: `${name} on MCP server ${server.name} (the server could not be reached to describe it)`,
    inputSchema: { type: 'object' as const },
  }));
}
