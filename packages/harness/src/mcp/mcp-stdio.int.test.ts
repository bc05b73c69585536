import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdFault } from '@agentry/testing';
import type { HarnessTool, ToolContext } from '../tools/tool.js';
import { McpManager } from './mcp.manager.js';
import { McpToolsProvider } from './mcp-tools.provider.js';

const serverBin = (pkg: string) =>
  fileURLToPath(new URL(`../../node_modules/@modelcontextprotocol/${pkg}/dist/index.js`, import.meta.url));
const EVERYTHING = serverBin('server-everything');
const FILESYSTEM = serverBin('server-filesystem');

const context = (signal: AbortSignal = new AbortController().signal): ToolContext => ({
  toolCallId: 'call_1',
  fs: {} as ToolContext['fs'],
  signal,
  sessionId: 'sess_1',
  agentId: 'agent_1',
  values: {},
});

const byName = (tools: HarnessTool[], name: string): HarnessTool => {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name} in ${tools.map((t) => t.name).join(', ')}`);
  return tool;
};

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('MCP over stdio: server-everything', () => {
  let manager: McpManager;
  let tools: HarnessTool[];
  beforeAll(async () => {
    manager = new McpManager([
      {
        name: 'everything',
        transport: 'stdio',
        command: process.execPath,
        args: [EVERYTHING, 'stdio'],
        timeoutMs: 10_000,
      },
    ]);
    expect(manager.connection('everything')?.connected).toBe(false);
    tools = await manager.toolsOf('everything');
  });
  afterAll(() => manager.close());

  it('exposes each tool as mcp__{server}__{tool} in toolset mcp:{server}, asking by default', () => {
    const echo = byName(tools, 'mcp__everything__echo');
    expect(echo).toMatchObject({
      toolset: 'mcp:everything',
      defaultPermission: 'always_ask',
      idempotent: true,
    });
    expect(echo.inputSchema).toMatchObject({ type: 'object', properties: { message: { type: 'string' } } });
    expect(tools.every((t) => t.name.startsWith('mcp__everything__') && t.toolset === 'mcp:everything')).toBe(
      true,
    );
  });

  it('calls a tool and maps text and image results', async () => {
    const echo = await byName(tools, 'mcp__everything__echo').execute({ message: 'ping' }, context());
    expect(echo).toEqual({ status: 'ok', content: [{ type: 'text', text: 'Echo: ping' }] });
    const image = await byName(tools, 'mcp__everything__get-tiny-image').execute({}, context());
    expect(image.status).toBe('ok');
    const blocks = image.status === 'ok' ? image.content : [];
    expect(blocks).toContainEqual(expect.objectContaining({ type: 'image', mediaType: 'image/png' }));
  });

  it('turns invalid arguments into an error outcome the model can read', async () => {
    const outcome = await byName(tools, 'mcp__everything__get-sum').execute({ a: 'one' }, context());
    expect(outcome.status).toBe('error');
  });

  it('times out a slow call with TIMEOUT', async () => {
    const slow = new McpManager([
      {
        name: 'slow',
        transport: 'stdio',
        command: process.execPath,
        args: [EVERYTHING, 'stdio'],
        timeoutMs: 300,
        connectTimeoutMs: 10_000,
      },
    ]);
    try {
      const op = byName(await slow.toolsOf('slow'), 'mcp__slow__trigger-long-running-operation');
      // Left alone, the five-second operation would succeed: failing shows the 300 ms timeout cut it.
      await expect(op.execute({ duration: 5, steps: 5 }, context())).rejects.toMatchObject({
        code: 'TIMEOUT',
      });
    } finally {
      await slow.close();
    }
  });

  it('aborts a running call with ABORTED', async () => {
    const op = byName(tools, 'mcp__everything__trigger-long-running-operation');
    const controller = new AbortController();
    // The abort strikes while the five-second operation runs on the server.
    void holdFault(100).then(() => controller.abort());
    await expect(op.execute({ duration: 5, steps: 5 }, context(controller.signal))).rejects.toMatchObject({
      code: 'ABORTED',
    });
  });
});

describe('MCP over stdio: server-filesystem', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agentry-mcp-fs-'));
    await writeFile(join(dir, 'notes.txt'), 'remember the milk');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('filters with enableTools, auto-allows read-only tools when asked, and reads a file', async () => {
    const manager = new McpManager(
      [
        {
          name: 'fs',
          transport: 'stdio',
          command: process.execPath,
          args: [FILESYSTEM, dir],
          enableTools: ['read_text_file', 'write_file'],
        },
      ],
      { autoAllowReadOnly: true },
    );
    try {
      const { tools, failures } = await manager.listTools();
      expect(failures).toEqual([]);
      expect(tools.map((t) => t.name).sort()).toEqual(['mcp__fs__read_text_file', 'mcp__fs__write_file']);
      const read = byName(tools, 'mcp__fs__read_text_file');
      const write = byName(tools, 'mcp__fs__write_file');
      expect(read).toMatchObject({ defaultPermission: 'always_allow', idempotent: true });
      expect(write).toMatchObject({ defaultPermission: 'always_ask', idempotent: false });
      expect(await read.execute({ path: join(dir, 'notes.txt') }, context())).toEqual({
        status: 'ok',
        content: [{ type: 'text', text: 'remember the milk' }],
      });
      const outside = await read.execute({ path: '/etc/hostname' }, context());
      expect(outside.status).toBe('error');
    } finally {
      await manager.close();
    }
  });
});

describe('MCP over stdio: dead servers', () => {
  it('fails fast with MCP_CONNECTION_FAILED when the command exits at once, without hiding other servers', async () => {
    const manager = new McpManager([
      {
        name: 'dead',
        transport: 'stdio',
        command: process.execPath,
        args: ['-e', 'console.error("bad config"); process.exit(3)'],
      },
      { name: 'missing', transport: 'stdio', command: '/nonexistent/agentry-mcp-server' },
      { name: 'ok', transport: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] },
    ]);
    try {
      const { tools, failures } = await manager.listTools();
      expect(failures.map((f) => [f.server, f.error.code])).toEqual([
        ['dead', 'MCP_CONNECTION_FAILED'],
        ['missing', 'MCP_CONNECTION_FAILED'],
      ]);
      expect(failures[0]?.error.message).toContain('bad config');
      expect(tools.some((t) => t.name === 'mcp__ok__echo')).toBe(true);
    } finally {
      await manager.close();
    }
  });

  it('fails an in-flight call fast when the server dies, and reconnects on the next call', async () => {
    const manager = new McpManager([
      { name: 'crashy', transport: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] },
    ]);
    try {
      const tools = await manager.toolsOf('crashy');
      const pid = manager.connection('crashy')?.pid;
      expect(pid).toBeTypeOf('number');
      const call = byName(tools, 'mcp__crashy__trigger-long-running-operation').execute(
        { duration: 30, steps: 3 },
        context(),
      );
      // The server dies while the 30-second operation runs on it.
      void holdFault(100).then(() => process.kill(pid as number, 'SIGKILL'));
      // Failed as a lost connection, not as a call that ran into its timeout.
      await expect(call).rejects.toMatchObject({ code: 'MCP_CONNECTION_FAILED' });
      const echo = await byName(tools, 'mcp__crashy__echo').execute({ message: 'again' }, context());
      expect(echo).toEqual({ status: 'ok', content: [{ type: 'text', text: 'Echo: again' }] });
      expect(manager.connection('crashy')?.pid).not.toBe(pid);
    } finally {
      await manager.close();
    }
  });

  it('kills stdio children on close and refuses calls afterwards', async () => {
    const manager = new McpManager([
      { name: 'child', transport: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] },
    ]);
    const tools = await manager.toolsOf('child');
    const pid = manager.connection('child')?.pid as number;
    expect(isAlive(pid)).toBe(true);
    await manager.close();
    expect(isAlive(pid)).toBe(false);
    await expect(
      byName(tools, 'mcp__child__echo').execute({ message: 'x' }, context()),
    ).rejects.toMatchObject({
      code: 'MCP_CONNECTION_FAILED',
    });
  });
});

describe('McpToolsProvider', () => {
  it('serves tools.json servers, reuses the connection across turns and reports dead servers', async () => {
    const failed: string[] = [];
    const provider = new McpToolsProvider({ onServerFailure: ({ server }) => failed.push(server) });
    const servers = {
      docs: { command: process.execPath, args: [EVERYTHING, 'stdio'], enableTools: ['echo'] },
      broken: { command: process.execPath, args: ['-e', 'process.exit(1)'] },
    };
    try {
      const first = await provider.tools(servers);
      expect(first.map((t) => t.name)).toEqual(['mcp__docs__echo']);
      const again = await provider.tools({ broken: servers.broken, docs: servers.docs });
      expect(await byName(again, 'mcp__docs__echo').execute({ message: 'reused' }, context())).toEqual({
        status: 'ok',
        content: [{ type: 'text', text: 'Echo: reused' }],
      });
      expect(provider.size).toBe(1);
      expect(failed).toEqual(['broken', 'broken']);
    } finally {
      await provider.close();
    }
  });
});
