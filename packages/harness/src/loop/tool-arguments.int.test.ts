import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createHarness } from '../harness.js';
import { ScriptedModel } from '../scripted/scripted-model.js';
import { AGENT_FILE_TOOLS } from '../tools/agent-toolset/agent-file.tools.js';
import { createAgentBashTool, type ShellRun } from '../tools/agent-toolset/agent-bash.tool.js';
import { collectRun, ofType, workspaceWith } from './run-collect.fixture.js';

const EVERYTHING = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);

const textOf = (event: { content: { type: string; text?: string }[] }) =>
  event.content.map((block) => block.text ?? '').join('');

describe("the model's tool arguments are checked against each tool's schema", () => {
  it('answers a wrong-typed argument to read, bash and an MCP tool with a tool error naming the field', async () => {
    const workspace = await workspaceWith({
      'notes.txt': 'hello',
      'tools.json': JSON.stringify({
        mcpServers: { everything: { transport: 'stdio', command: '${NODE}', args: [EVERYTHING, 'stdio'] } },
      }),
    });
    const shellRuns: ShellRun[] = [];
    const bash = createAgentBashTool(
      {
        run: (run) => {
          shellRuns.push(run);
          return Promise.resolve({ output: 'ran', exitCode: 0, timedOut: false, aborted: false });
        },
        reset: () => Promise.resolve(),
      },
      { defaultTimeoutMs: 1_000, maxTimeoutMs: 10_000 },
    );
    const calls = [
      { id: 'bad_read', name: 'read', input: { file_path: 42 } },
      { id: 'bad_bash', name: 'bash', input: { command: 'ls', timeout_ms: 'soon' } },
      { id: 'bad_mcp', name: 'mcp__everything__echo', input: { message: 7 } },
      { id: 'good_read', name: 'read', input: { file_path: 'notes.txt', view_range: [1, 1] } },
      { id: 'good_mcp', name: 'mcp__everything__echo', input: { message: 'ping' } },
    ];
    const harness = createHarness({
      model: new ScriptedModel({ script: { turns: [{ reply: [{ toolCalls: calls }, 'done'] }] } }),
      workspace,
      tools: [...AGENT_FILE_TOOLS, bash],
      env: { NODE: process.execPath },
      permissions: { toolsets: { 'mcp:*': 'always_allow', builtin: 'always_allow' } },
      disableMemoryHooks: true,
    });
    try {
      const { events } = await collectRun(harness, { conversation: [], text: 'go' });
      const results = new Map(
        [...ofType(events, 'agent.tool_result'), ...ofType(events, 'agent.mcp_tool_result')].map((e) => [
          e.tool_use_id,
          e,
        ]),
      );
      const useIds = new Map(
        [...ofType(events, 'agent.tool_use'), ...ofType(events, 'agent.mcp_tool_use')].map((e) => [
          e.name + JSON.stringify(e.input),
          e.id,
        ]),
      );
      const resultOf = (call: (typeof calls)[number]) =>
        results.get(useIds.get(call.name + JSON.stringify(call.input))!)!;

      const badRead = resultOf(calls[0]!);
      expect(badRead.is_error).toBe(true);
      expect(textOf(badRead)).toMatch(
        /^read: invalid arguments: file_path: expected string, received number/,
      );
      const badBash = resultOf(calls[1]!);
      expect(badBash.is_error).toBe(true);
      expect(textOf(badBash)).toMatch(
        /^bash: invalid arguments: timeout_ms: expected (int|number), received string/,
      );
      expect(shellRuns).toEqual([]);
      const badMcp = resultOf(calls[2]!);
      expect(badMcp.is_error).toBe(true);
      expect(textOf(badMcp)).toBe('mcp__everything__echo: invalid arguments: message: must be string');

      // The same tools with well-typed arguments run.
      expect(resultOf(calls[3]!)).toMatchObject({ is_error: false, content: [{ text: 'hello' }] });
      expect(resultOf(calls[4]!)).toMatchObject({ is_error: false, content: [{ text: 'Echo: ping' }] });
    } finally {
      await harness.close();
    }
  }, 60_000);
});
