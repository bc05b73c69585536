import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SystemClock, type Logger, type NatsBus, type RpcClient } from '@agentry/platform';
import type { Redis } from 'ioredis';
import type { DataplaneEnv } from '../config/env.js';
import type { HandsTarget } from '../hands/hands-tool-executor.js';
import type { EndedSessionsRepository } from './ended-sessions.repository.js';
import { SessionToolsJsonMcp } from './session-tools-json-mcp.js';

const target = (environmentType: HandsTarget['environmentType']): HandsTarget => ({
  tenantId: 'tenant_1',
  sessionId: 'sesn_1',
  environmentId: 'env_1',
  environmentType,
  timeoutMs: 5_000,
  networking: { type: 'unrestricted', allowedHosts: [] },
});
const context = {
  toolCallId: 'c1',
  fs: {} as never,
  signal: new AbortController().signal,
  sessionId: 'sesn_1',
  agentId: 'agent_1',
  values: {},
};

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function pool(allowPrivate: boolean) {
  const warnings: string[] = [];
  const logger = {
    warn: (_: unknown, msg: string) => warnings.push(msg),
    debug: () => undefined,
    info: () => undefined,
    error: () => undefined,
  };
  const config = {
    AGENTRY_EGRESS_ALLOW_PRIVATE_NETWORKS: allowPrivate,
    AGENTRY_HANDS_BINDING_LEASE_MS: 60_000,
    AGENTRY_MCP_IDLE_TIMEOUT_MS: 60_000,
    AGENTRY_MCP_CONNECT_TIMEOUT_MS: 2_000,
    AGENTRY_MCP_CALL_TIMEOUT_MS: 2_000,
    AGENTRY_MCP_ENDED_CHECK_MS: 1_000,
  } as DataplaneEnv;
  const ended = { endedAmong: () => Promise.resolve([]) } as unknown as EndedSessionsRepository;
  const mcp = new SessionToolsJsonMcp(
    {} as RpcClient,
    {} as NatsBus,
    ended,
    config,
    logger as unknown as Logger,
    {} as Redis,
    new SystemClock(),
  );
  return { mcp, warnings };
}

describe('SessionToolsJsonMcp', () => {
  it('refuses a URL server on loopback through the egress guard: the tools tools.json names answer with the refusal', async () => {
    const { mcp, warnings } = pool(false);
    const url = `http://127.0.0.1:${await closedPort()}/mcp`;
    const tools = await mcp.toolsFor(target('sandbox'), { local: { url, enableTools: ['ping'] } });
    expect(tools.map((t) => [t.name, t.toolset])).toEqual([['mcp__local__ping', 'mcp:local']]);
    expect(warnings).toContain('MCP server could not be reached');
    await expect(tools[0]!.execute({}, context)).rejects.toThrow(
      /MCP server "local": cannot connect: refused by the egress policy: .*127\.0\.0\.1, a loopback address/,
    );
    await mcp.onModuleDestroy();
  });

  it('lets the installation allow private addresses: the call then reaches the address (nothing listens there)', async () => {
    const { mcp } = pool(true);
    const url = `http://127.0.0.1:${await closedPort()}/mcp`;
    const tools = await mcp.toolsFor(target('sandbox'), { local: { url, enableTools: ['ping'] } });
    const call = tools[0]!.execute({}, context);
    await expect(call).rejects.toThrow(/MCP server "local": cannot connect/);
    await expect(call).rejects.not.toThrow(/egress policy/);
    await mcp.onModuleDestroy();
  });

  it('never starts a stdio server where the session has no sandbox on a worker', async () => {
    const { mcp, warnings } = pool(false);
    expect(await mcp.toolsFor(target('remote'), { files: { command: 'node', args: ['server.js'] } })).toEqual(
      [],
    );
    expect(warnings).toContain(
      'stdio MCP server left out: only sessions with a sandbox on a worker run them',
    );
    expect(mcp.size).toBe(0);
  });
});
