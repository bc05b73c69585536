import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolContext } from '../tools/tool.js';
import { McpManager } from './mcp.manager.js';
import type { StdioBridge, StdioBridgeListener } from './stdio-bridge.transport.js';

const EVERYTHING = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);

const context: ToolContext = {
  toolCallId: 'call_1',
  fs: {} as ToolContext['fs'],
  signal: new AbortController().signal,
  sessionId: 's',
  agentId: 'a',
  values: {},
};

/** A bridge to a server this test starts itself: the far end a worker would be. */
class ChildBridge implements StdioBridge {
  static opened: ChildBridge[] = [];
  child: ChildProcessWithoutNullStreams | undefined;

  open(listener: StdioBridgeListener): Promise<void> {
    ChildBridge.opened.push(this);
    const child = spawn(process.execPath, [EVERYTHING, 'stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      const lines = (pending + chunk.toString('utf8')).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) listener.message(JSON.parse(line));
    });
    child.once('exit', (code) => listener.exit(`the server exited (code ${code})`));
    return Promise.resolve();
  }

  send(message: object): Promise<void> {
    this.child!.stdin.write(`${JSON.stringify(message)}\n`);
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.child?.kill('SIGKILL');
    return Promise.resolve();
  }
}

describe('a stdio MCP server reached through a bridge', () => {
  let manager: McpManager | undefined;
  afterEach(async () => {
    await manager?.close();
    ChildBridge.opened = [];
  });

  it('speaks MCP with the official client, and reconnects through a new bridge once the server is gone', async () => {
    manager = new McpManager([{ name: 'everything', transport: 'stdio', command: 'never-spawned-here' }], {
      stdioBridge: () => new ChildBridge(),
    });
    const tools = await manager.toolsOf('everything');
    const echo = tools.find((t) => t.name === 'mcp__everything__echo')!;
    expect(await echo.execute({ message: 'over the bridge' }, context)).toMatchObject({
      status: 'ok',
      content: [{ type: 'text', text: 'Echo: over the bridge' }],
    });
    expect(manager.connection('everything')!.pid).toBeNull();

    ChildBridge.opened[0]!.child!.kill('SIGKILL');
    await expect.poll(() => manager!.connection('everything')!.connected).toBe(false);
    expect(await echo.execute({ message: 'again' }, context)).toMatchObject({ status: 'ok' });
    expect(ChildBridge.opened).toHaveLength(2);
  });

  it('reports a server that exits before answering as a connection failure naming why', async () => {
    manager = new McpManager([{ name: 'gone', transport: 'stdio', command: 'x', connectTimeoutMs: 5_000 }], {
      stdioBridge: () => ({
        open: (listener) => {
          setImmediate(() => listener.exit('the server exited (code 127); stderr: no such command'));
          return Promise.resolve();
        },
        send: () => Promise.resolve(),
        close: () => Promise.resolve(),
      }),
    });
    await expect(manager.toolsOf('gone')).rejects.toThrow(
      /MCP server "gone": cannot connect: .*no such command/,
    );
  });
});
