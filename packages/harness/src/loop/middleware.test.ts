import { AppError } from '@agentry/contracts';
import { describe, expect, it } from 'vitest';
import { createHarness } from '../harness.js';
import type { ChatMessage, ModelPort, ModelRequest } from '../model/model-port.js';
import { ScriptedModel } from '../scripted/scripted-model.js';
import type { HarnessTool } from '../tools/tool.js';
import { collectRun, ofType, workspaceWith } from './run-collect.fixture.js';

function recording(model: ModelPort): ModelPort & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    id: model.id,
    contextWindow: model.contextWindow,
    requests,
    stream: (req, signal) => (requests.push(req), model.stream(req, signal)),
  };
}

const bigTool: HarnessTool = {
  name: 'dump',
  description: 'large output',
  inputSchema: { type: 'object' },
  idempotent: true,
  toolset: 'custom',
  execute: () =>
    Promise.resolve({
      status: 'ok',
      content: [{ type: 'text', text: `HEAD${'x'.repeat(100_000)}TAIL` }],
    }),
};

describe('middleware', () => {
  it('emits mcp tool events with the server name for tools of an mcp:* toolset', async () => {
    const mcpTool: HarnessTool = {
      ...bigTool,
      name: 'mcp__docs__search',
      toolset: 'mcp:docs',
      execute: () => Promise.resolve({ status: 'ok', content: [{ type: 'text', text: 'hit' }] }),
    };
    const script = {
      turns: [{ reply: [{ toolCall: { name: 'mcp__docs__search', input: { q: 'x' } } }, 'found'] }],
    };
    const { events } = await collectRun(
      createHarness({
        model: new ScriptedModel({ script }),
        workspace: await workspaceWith(),
        tools: [mcpTool],
      }),
      { conversation: [], text: 'search' },
    );
    const use = ofType(events, 'agent.mcp_tool_use')[0]!;
    expect(use).toMatchObject({
      name: 'mcp__docs__search',
      server_name: 'docs',
      evaluated_permission: 'allow',
    });
    expect(ofType(events, 'agent.mcp_tool_result')[0]).toMatchObject({
      tool_use_id: use.id,
      server_name: 'docs',
      is_error: false,
    });
    expect(ofType(events, 'agent.tool_use')).toHaveLength(0);
  });

  it('evicts a huge tool result to a workspace file and gives the model a preview', async () => {
    const fs = await workspaceWith();
    const script = { turns: [{ reply: [{ toolCall: { name: 'dump' } }, 'ok'] }] };
    const { events } = await collectRun(
      createHarness({ model: new ScriptedModel({ script }), workspace: fs, tools: [bigTool] }),
      { conversation: [], text: 'dump' },
    );
    const result = JSON.stringify(ofType(events, 'agent.tool_result')[0]!.content);
    expect(result.length).toBeLessThan(10_000);
    expect(result).toContain('HEAD');
    expect(result).toContain('TAIL');
    const saved = (await fs.list('large_tool_results', { recursive: true })).filter((e) => e.kind === 'file');
    expect(saved).toHaveLength(1);
    expect((await fs.readText(saved[0]!.path)).length).toBe(100_008);
  });

  it('compacts through the hook and emits agent.thread_context_compacted; CONTEXT_OVERFLOW triggers one emergency compaction', async () => {
    const calls: boolean[] = [];
    let overflowed = false;
    const inner = new ScriptedModel();
    const model: ModelPort = {
      id: 'overflowing',
      contextWindow: 1_000,
      async *stream(req, signal) {
        if (!overflowed) {
          overflowed = true;
          throw new AppError('CONTEXT_OVERFLOW', 'too long');
        }
        yield* inner.stream(req, signal);
      },
    };
    const harness = createHarness({
      model,
      workspace: await workspaceWith(),
      hooks: {
        compact: (_ctx, conversation: ChatMessage[], { emergency }) => {
          calls.push(emergency);
          if (!emergency) return Promise.resolve({ conversation });
          return Promise.resolve({ conversation: conversation.slice(-1), summary: 'older talk summarised' });
        },
      },
    });
    const history: ChatMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'old' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'old reply' }] },
    ];
    const { events, end } = await collectRun(harness, { conversation: history, text: 'new question' });
    expect(calls).toEqual([false, true, false]);
    expect(ofType(events, 'agent.thread_context_compacted')).toMatchObject([
      { summary: 'older talk summarised' },
    ]);
    expect(end.stop_reason).toEqual({ type: 'end_turn' });
    expect(end.conversation.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('offers workspace skills with load_skill_through_path and lists them in the system prompt', async () => {
    const model = recording(new ScriptedModel());
    const fs = await workspaceWith({
      'skills/reviewer/SKILL.md':
        '---\nname: reviewer\ndescription: Reviews pull requests\n---\nBe strict.\n',
    });
    await collectRun(createHarness({ model, workspace: fs }), { conversation: [], text: 'hi' });
    expect(model.requests[0]!.tools?.map((t) => t.name)).toContain('load_skill_through_path');
    expect(model.requests[0]!.messages[0]!.content).toContain('Reviews pull requests');

    const off = recording(new ScriptedModel());
    await collectRun(createHarness({ model: off, workspace: fs, disableDynamicSkills: true }), {
      conversation: [],
      text: 'hi',
    });
    expect(off.requests[0]!.tools?.map((t) => t.name)).not.toContain('load_skill_through_path');
  });

  it('flushes memory after a finished turn unless memory hooks are disabled', async () => {
    const flushed: number[] = [];
    const hooks = {
      flushMemory: (_ctx: unknown, conversation: ChatMessage[]) => {
        flushed.push(conversation.length);
        return Promise.resolve();
      },
    };
    await collectRun(createHarness({ model: new ScriptedModel(), workspace: await workspaceWith(), hooks }), {
      conversation: [],
      text: 'remember me',
    });
    expect(flushed).toEqual([2]);
    await collectRun(
      createHarness({
        model: new ScriptedModel(),
        workspace: await workspaceWith(),
        hooks,
        disableMemoryHooks: true,
      }),
      { conversation: [], text: 'x' },
    );
    expect(flushed).toEqual([2]);
  });

  it('uses the injected id generator for every persisted event', async () => {
    let n = 0;
    const { events } = await collectRun(
      createHarness({
        model: new ScriptedModel(),
        workspace: await workspaceWith(),
        idGenerator: () => `sevt_test${++n}`,
      }),
      {
        conversation: [],
        text: 'hi',
      },
    );
    // The message's id is drawn with the model call (its preview announces it), before the span's end.
    expect(events.flatMap((e) => ('id' in e ? [e.id] : []))).toEqual([
      'sevt_test1',
      'sevt_test4',
      'sevt_test2',
    ]);
  });

  it('a failing memory flush does not fail the turn; an unexpected failure still ends with run.end', async () => {
    const flaky = { flushMemory: async () => Promise.reject(new Error('disk full')) };
    const ok = await collectRun(
      createHarness({ model: new ScriptedModel(), workspace: await workspaceWith(), hooks: flaky }),
      { conversation: [], text: 'hi' },
    );
    expect(ok.end.stop_reason).toEqual({ type: 'end_turn' });

    const broken = { workspaceContext: async () => Promise.reject(new Error('backend down')) };
    const failed = await collectRun(
      createHarness({ model: new ScriptedModel(), workspace: await workspaceWith(), hooks: broken }),
      { conversation: [], text: 'hi' },
    );
    expect(failed.end.stop_reason).toEqual({
      type: 'error',
      error: { code: 'INTERNAL', message: 'backend down', retryable: false },
    });
    expect(failed.end.conversation).toHaveLength(1);
  });

  it('gives a run up unfinished, without run.end, while its storage is away for now', async () => {
    const away = {
      workspaceContext: async () =>
        Promise.reject(new AppError('UNAVAILABLE', 'Workspace storage query failed', { retryable: true })),
    };
    const harness = createHarness({
      model: new ScriptedModel(),
      workspace: await workspaceWith(),
      hooks: away,
    });
    await expect(collectRun(harness, { conversation: [], text: 'hi' })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
    });
  });
});
