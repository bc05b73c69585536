import { describe, expect, it, vi } from 'vitest';
import { normalizeAgentTools, type SessionAgent } from '@agentry/contracts';
import { SystemClock, type Logger } from '@agentry/platform';
import type { DataplaneEnv } from '../config/env.js';
import type { EndedSessionsRepository } from './ended-sessions.repository.js';
import type { McpCredentialsClient } from './mcp-credentials.client.js';
import { SessionMcpPool } from './session-mcp-pool.js';

const URL_ON_LOOPBACK = 'http://127.0.0.1:9/mcp';
const ref = { tenantId: 'tenant_1', sessionId: 'sesn_1' };
const agent = {
  id: 'agent_1',
  version: 1,
  model: { id: 'scripted' },
  mcp_servers: [{ type: 'url', name: 'local', url: URL_ON_LOOPBACK }],
  tools: normalizeAgentTools([
    { type: 'mcp_toolset', mcp_server_name: 'local', configs: [{ name: 'lookup' }] },
  ]),
} as unknown as SessionAgent;

function pool(
  options: {
    idleMs?: number;
    credentialsFor?: McpCredentialsClient['credentialsFor'];
    ended?: string[];
  } = {},
) {
  const warnings: string[] = [];
  const logger = {
    warn: (_: unknown, msg: string) => warnings.push(msg),
    debug: () => undefined,
    info: () => undefined,
    error: () => undefined,
  };
  const tokensFor = vi.fn(
    options.credentialsFor ??
      (() =>
        Promise.resolve(
          new Map([
            [
              URL_ON_LOOPBACK,
              {
                server_url: URL_ON_LOOPBACK,
                credential_id: 'vcrd_1',
                type: 'static_bearer' as const,
                access_token: 'tkn',
              },
            ],
          ]),
        )),
  );
  const config = {
    AGENTRY_EGRESS_ALLOW_PRIVATE_NETWORKS: false,
    AGENTRY_MCP_IDLE_TIMEOUT_MS: options.idleMs ?? 60_000,
    AGENTRY_MCP_CONNECT_TIMEOUT_MS: 2_000,
    AGENTRY_MCP_CALL_TIMEOUT_MS: 2_000,
    AGENTRY_MCP_ENDED_CHECK_MS: 50,
  } as DataplaneEnv;
  const ended = {
    endedAmong: (ids: string[]) => Promise.resolve(ids.filter((id) => options.ended?.includes(id))),
  } as EndedSessionsRepository;
  const mcp = new SessionMcpPool(
    { credentialsFor: tokensFor } as unknown as McpCredentialsClient,
    ended,
    config,
    logger as unknown as Logger,
    new SystemClock(),
  );
  return { pool: mcp, tokensFor, warnings };
}

const context = {
  toolCallId: 'c1',
  fs: {} as never,
  signal: new AbortController().signal,
  sessionId: ref.sessionId,
  agentId: 'agent_1',
  values: {},
};

describe('SessionMcpPool', () => {
  it('keeps a server the egress guard refuses out of reach: its named tools answer with the refusal', async () => {
    const { pool: mcp, tokensFor, warnings } = pool();
    const tools = await mcp.toolsFor(ref, agent);
    expect(tools.map((t) => [t.name, t.toolset])).toEqual([['mcp__local__lookup', 'mcp:local']]);
    expect(tokensFor).toHaveBeenCalledWith('tenant_1', 'sesn_1', [URL_ON_LOOPBACK]);
    expect(warnings).toContain('MCP server could not be reached');
    await expect(tools[0]!.execute({}, context)).rejects.toThrow(
      /MCP server "local": cannot connect: refused by the egress policy: .*127\.0\.0\.1, a loopback address/,
    );
    await mcp.onModuleDestroy();
  });

  it('reuses the session entry across turns and closes it once idle', async () => {
    const { pool: mcp, tokensFor } = pool({ idleMs: 150 });
    await mcp.toolsFor(ref, agent);
    await mcp.toolsFor(ref, agent);
    expect(tokensFor).toHaveBeenCalledTimes(1);
    expect(mcp.size).toBe(1);
    await vi.waitFor(() => expect(mcp.size).toBe(0), { timeout: 5_000 });
    await mcp.toolsFor(ref, agent);
    expect(tokensFor).toHaveBeenCalledTimes(2);
    await mcp.onModuleDestroy();
    expect(mcp.size).toBe(0);
  });

  it('closes the connections of a session that ended long before its idle timeout', async () => {
    const { pool: mcp } = pool({ ended: ['sesn_gone'] });
    mcp.onModuleInit();
    await mcp.toolsFor(ref, agent);
    await mcp.toolsFor({ ...ref, sessionId: 'sesn_gone' }, agent);
    expect(mcp.size).toBe(2);
    await vi.waitFor(() => expect(mcp.size).toBe(1), { timeout: 5_000 });
    await mcp.closeEnded();
    expect(mcp.size).toBe(1);
    await mcp.onModuleDestroy();
  });

  it('goes on without credentials when they cannot be loaded, and drops the entry when the agent has no servers', async () => {
    const { pool: mcp, warnings } = pool({
      credentialsFor: async () => Promise.reject(new Error('control unavailable')),
    });
    expect(await mcp.toolsFor(ref, agent)).toHaveLength(1);
    expect(warnings).toContain('vault credentials for MCP servers could not be loaded');
    expect(await mcp.toolsFor(ref, { ...agent, mcp_servers: [], tools: [] })).toEqual([]);
    expect(mcp.size).toBe(0);
  });
});
