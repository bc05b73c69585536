import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createHarness } from '../harness.js';
import { ScriptedModel } from '../scripted/scripted-model.js';
import { collectRun, ofType, workspaceWith } from './run-collect.fixture.js';

const EVERYTHING = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);

describe('MCP servers from tools.json', () => {
  it('connects the configured stdio server, runs its tool with mcp events, and closes it', async () => {
    const workspace = await workspaceWith({
      'tools.json': JSON.stringify({
        mcpServers: { everything: { transport: 'stdio', command: '${NODE}', args: [EVERYTHING, 'stdio'] } },
      }),
    });
    const script = {
      turns: [
        { reply: [{ toolCall: { name: 'mcp__everything__echo', input: { message: 'ping' } } }, 'echoed'] },
      ],
    };
    const harness = createHarness({
      model: new ScriptedModel({ script }),
      workspace,
      env: { NODE: process.execPath },
      permissions: { toolsets: { 'mcp:*': 'always_allow' } },
      disableMemoryHooks: true,
    });
    try {
      const { events, end } = await collectRun(harness, { conversation: [], text: 'echo ping' });
      expect(ofType(events, 'agent.mcp_tool_use')[0]).toMatchObject({
        name: 'mcp__everything__echo',
        server_name: 'everything',
        evaluated_permission: 'allow',
      });
      expect(ofType(events, 'agent.mcp_tool_result')[0]).toMatchObject({
        server_name: 'everything',
        is_error: false,
        content: [{ type: 'text', text: 'Echo: ping' }],
      });
      expect(end.stop_reason).toEqual({ type: 'end_turn' });

      // Without the toolset override, MCP tools ask first (their default permission).
      const asking = createHarness({
        model: new ScriptedModel({ script }),
        workspace,
        env: { NODE: process.execPath },
        disableMemoryHooks: true,
      });
      try {
        const ask = await collectRun(asking, { conversation: [], text: 'echo ping' });
        expect(ask.end.stop_reason).toMatchObject({ type: 'requires_action' });
      } finally {
        await asking.close();
      }
    } finally {
      await harness.close();
    }
  }, 60_000);
});
