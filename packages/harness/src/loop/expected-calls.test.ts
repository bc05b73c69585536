import { describe, expect, it } from 'vitest';
import { createHarness } from '../harness.js';
import { ScriptedModel } from '../scripted/scripted-model.js';
import type { HarnessTool } from '../tools/tool.js';
import type { ToolExecutor } from '../tools/tool-executor.js';
import { workspaceWith } from './run-collect.fixture.js';

function tool(name: string): HarnessTool {
  return {
    name,
    description: name,
    inputSchema: { type: 'object' },
    idempotent: false,
    toolset: 'custom',
    execute: () => Promise.resolve({ status: 'ok', content: [{ type: 'text', text: 'done' }] }),
  };
}

describe('expected calls', () => {
  it('tells the executor of each allowed call before its tool_use is handed out, and of no other', async () => {
    const seen: string[] = [];
    const executor: ToolExecutor = {
      expect: ({ toolName, toolCallId }) => seen.push(`expect ${toolName} ${toolCallId}`),
      execute: ({ tool: { name } }) => {
        seen.push(`execute ${name}`);
        return Promise.resolve({ status: 'ok', content: [{ type: 'text', text: 'done' }] });
      },
    };
    const harness = createHarness({
      model: new ScriptedModel({
        script: { turns: [{ reply: [{ toolCalls: [{ name: 'build' }, { name: 'deploy' }] }, 'ok'] }] },
      }),
      workspace: await workspaceWith(),
      tools: [tool('build'), tool('deploy')],
      toolExecutor: executor,
      permissions: { tools: { deploy: 'always_ask' } },
    });
    for await (const event of harness.run({ conversation: [], text: 'go' }, { sessionId: 's', agentId: 'a' }))
      if (event.type === 'agent.tool_use') seen.push(`tool_use ${event.name} ${event.id}`);
    const [expected, buildUse, deployUse, ...rest] = seen;
    const buildId = buildUse!.split(' ')[2];
    expect(expected).toBe(`expect build ${buildId}`);
    expect(buildUse).toBe(`tool_use build ${buildId}`);
    expect(deployUse).toMatch(/^tool_use deploy /);
    // The asked call waits for its approval: nothing is looked up for it, and only the build runs.
    expect(rest).toEqual(['execute build']);
  });
});
