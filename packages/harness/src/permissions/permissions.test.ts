import { describe, expect, it } from 'vitest';
import { createHarness } from '../harness.js';
import { collectRun, ofType, workspaceWith } from '../loop/run-collect.fixture.js';
import { ScriptedModel } from '../scripted/scripted-model.js';
import type { HarnessTool } from '../tools/tool.js';
import { resolvePermission } from './permission-policy.js';

function countingTool(
  name: string,
  calls: string[],
  toolset = 'custom',
  defaultPermission?: HarnessTool['defaultPermission'],
): HarnessTool {
  return {
    name,
    description: name,
    inputSchema: { type: 'object' },
    idempotent: false,
    toolset,
    ...(defaultPermission ? { defaultPermission } : {}),
    execute() {
      calls.push(name);
      return Promise.resolve({ status: 'ok', content: [{ type: 'text', text: `${name} ran` }] });
    },
  };
}

const callThenReply = {
  turns: [{ reply: [{ toolCall: { name: 'deploy', input: { env: 'prod' } } }, 'after the tool'] }],
};

describe('resolvePermission', () => {
  it('prefers per-tool policy, then toolset, then the tool default, then always_allow', () => {
    const tool = { name: 'deploy', toolset: 'mcp:ops', defaultPermission: 'always_ask' as const };
    expect(resolvePermission({ name: 'x', toolset: 'builtin' })).toBe('always_allow');
    expect(resolvePermission(tool)).toBe('always_ask');
    expect(resolvePermission(tool, { toolsets: { 'mcp:*': 'deny' } })).toBe('deny');
    expect(resolvePermission(tool, { toolsets: { 'mcp:*': 'deny', 'mcp:ops': 'always_allow' } })).toBe(
      'always_allow',
    );
    expect(
      resolvePermission(tool, { tools: { deploy: 'deny' }, toolsets: { 'mcp:ops': 'always_allow' } }),
    ).toBe('deny');
  });
});

describe('permissions in the loop', () => {
  it('deny gives the model a permission_denied error result and never runs the tool', async () => {
    const calls: string[] = [];
    const harness = createHarness({
      model: new ScriptedModel({ script: callThenReply }),
      workspace: await workspaceWith(),
      tools: [countingTool('deploy', calls)],
      permissions: { tools: { deploy: 'deny' } },
    });
    const { events, end } = await collectRun(harness, { conversation: [], text: 'ship it' });
    expect(calls).toEqual([]);
    expect(ofType(events, 'agent.tool_use')[0]!.evaluated_permission).toBe('deny');
    const result = ofType(events, 'agent.tool_result')[0]!;
    expect(result.is_error).toBe(true);
    expect(JSON.stringify(result.content)).toContain('permission_denied');
    // The model got the error and carried on to its next step.
    expect(end.stop_reason).toEqual({ type: 'end_turn' });
    expect(ofType(events, 'agent.message')[0]!.content[0]!.text).toBe('after the tool');
  });

  it('always_ask stops with requires_action; an allow approval runs the tool and continues', async () => {
    const calls: string[] = [];
    const harness = createHarness({
      model: new ScriptedModel({ script: callThenReply }),
      workspace: await workspaceWith(),
      tools: [countingTool('deploy', calls, 'custom', 'always_ask')],
    });
    const first = await collectRun(harness, { conversation: [], text: 'ship it' });
    const use = ofType(first.events, 'agent.tool_use')[0]!;
    expect(use.evaluated_permission).toBe('ask');
    expect(first.end.stop_reason).toEqual({ type: 'requires_action', tool_use_ids: [use.id] });
    expect(calls).toEqual([]);

    const second = await collectRun(harness, {
      conversation: first.end.conversation,
      approvals: { [use.id]: { decision: 'allow' } },
    });
    expect(calls).toEqual(['deploy']);
    expect(ofType(second.events, 'agent.tool_result')[0]).toMatchObject({
      tool_use_id: use.id,
      is_error: false,
    });
    expect(second.end.stop_reason).toEqual({ type: 'end_turn' });
    expect(second.end.conversation.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('a deny approval returns the deny message to the model as an error result', async () => {
    const calls: string[] = [];
    const harness = createHarness({
      model: new ScriptedModel({ script: callThenReply }),
      workspace: await workspaceWith(),
      tools: [countingTool('deploy', calls)],
      permissions: { toolsets: { custom: 'always_ask' } },
    });
    const first = await collectRun(harness, { conversation: [], text: 'ship it' });
    const id = ofType(first.events, 'agent.tool_use')[0]!.id;
    const second = await collectRun(harness, {
      conversation: first.end.conversation,
      approvals: { [id]: { decision: 'deny', message: 'not on a Friday' } },
    });
    expect(calls).toEqual([]);
    const result = ofType(second.events, 'agent.tool_result')[0]!;
    expect(result.is_error).toBe(true);
    expect(JSON.stringify(result.content)).toContain('not on a Friday');
    expect(second.end.stop_reason).toEqual({ type: 'end_turn' });
  });

  it('a resume without an approval keeps waiting for it', async () => {
    const harness = createHarness({
      model: new ScriptedModel({ script: callThenReply }),
      workspace: await workspaceWith(),
      tools: [countingTool('deploy', [], 'custom', 'always_ask')],
    });
    const first = await collectRun(harness, { conversation: [], text: 'ship it' });
    const again = await collectRun(harness, { conversation: first.end.conversation });
    expect(again.end.stop_reason).toEqual(first.end.stop_reason);
    expect(ofType(again.events, 'span.model_request_start')).toHaveLength(0);
  });
});
