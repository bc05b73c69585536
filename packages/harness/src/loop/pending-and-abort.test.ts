import { describe, expect, it } from 'vitest';
import { createHarness } from '../harness.js';
import { ScriptedModel } from '../scripted/scripted-model.js';
import type { HarnessTool } from '../tools/tool.js';
import type { ToolExecutor } from '../tools/tool-executor.js';
import { abortableSleep } from './ports.js';
import { collectRun, ofType, workspaceWith } from './run-collect.fixture.js';

const remoteTool: HarnessTool = {
  name: 'remote_build',
  description: 'runs on a self-hosted worker',
  inputSchema: { type: 'object' },
  idempotent: false,
  toolset: 'custom',
  execute() {
    return Promise.reject(new Error('never runs in process'));
  },
};

describe('pending tool results', () => {
  it('ends with requires_action for a pending call and continues when a later run supplies the result', async () => {
    const suspended: string[] = [];
    const executor: ToolExecutor = {
      execute({ context }) {
        suspended.push(context.toolCallId);
        return Promise.resolve({ status: 'pending' });
      },
    };
    const script = {
      turns: [
        { reply: [{ toolCall: { name: 'remote_build', input: { target: 'all' } } }, 'build finished'] },
      ],
    };
    const harness = createHarness({
      model: new ScriptedModel({ script }),
      workspace: await workspaceWith(),
      tools: [remoteTool],
      toolExecutor: executor,
    });
    const first = await collectRun(harness, { conversation: [], text: 'build' });
    const id = ofType(first.events, 'agent.tool_use')[0]!.id;
    expect(suspended).toEqual([id]);
    expect(first.end.stop_reason).toEqual({ type: 'requires_action', tool_use_ids: [id] });
    expect(ofType(first.events, 'agent.tool_result')).toHaveLength(0);

    // Another harness instance (another replica) resumes from the persisted conversation.
    const replica = createHarness({
      model: new ScriptedModel({ script }),
      workspace: await workspaceWith(),
      tools: [remoteTool],
      toolExecutor: executor,
    });
    const second = await collectRun(replica, {
      conversation: first.end.conversation,
      toolResults: { [id]: { content: 'exit 0' } },
    });
    expect(ofType(second.events, 'agent.tool_result')[0]).toMatchObject({
      tool_use_id: id,
      is_error: false,
      content: [{ type: 'text', text: 'exit 0' }],
    });
    expect(ofType(second.events, 'agent.message')[0]!.content[0]!.text).toBe('build finished');
    expect(second.end.stop_reason).toEqual({ type: 'end_turn' });
  });

  it('closes an unanswered call with an error result when the user moves on', async () => {
    const executor: ToolExecutor = { execute: () => Promise.resolve({ status: 'pending' }) };
    const script = { turns: [{ match: 'build', reply: [{ toolCall: { name: 'remote_build' } }] }] };
    const harness = createHarness({
      model: new ScriptedModel({ script }),
      workspace: await workspaceWith(),
      tools: [remoteTool],
      toolExecutor: executor,
    });
    const first = await collectRun(harness, { conversation: [], text: 'build' });
    const second = await collectRun(harness, { conversation: first.end.conversation, text: 'never mind' });
    expect(ofType(second.events, 'agent.tool_result')[0]!.is_error).toBe(true);
    expect(ofType(second.events, 'agent.message')[0]!.content[0]!.text).toBe('You said: never mind');
  });

  it('an interrupted resume closes the calls still waiting, without calling the model', async () => {
    const executor: ToolExecutor = { execute: () => Promise.resolve({ status: 'pending' }) };
    const script = { turns: [{ match: 'build', reply: [{ toolCall: { name: 'remote_build' } }] }] };
    const harness = createHarness({
      model: new ScriptedModel({ script }),
      workspace: await workspaceWith(),
      tools: [remoteTool],
      toolExecutor: executor,
    });
    const first = await collectRun(harness, { conversation: [], text: 'build' });
    const id = ofType(first.events, 'agent.tool_use')[0]!.id;
    const second = await collectRun(
      harness,
      { conversation: first.end.conversation },
      undefined,
      AbortSignal.abort(),
    );
    expect(ofType(second.events, 'agent.tool_result')).toMatchObject([{ tool_use_id: id, is_error: true }]);
    expect(ofType(second.events, 'span.model_request_start')).toHaveLength(0);
    expect(second.end.stop_reason).toEqual({ type: 'interrupted' });
  });
});

describe('interrupts', () => {
  it('aborting during a slow model response stops the run promptly as interrupted', async () => {
    // An hour-long response: the run can end within the test only through the abort.
    const script = { turns: [{ reply: [{ delayMs: 3_600_000, text: 'too late' }] }] };
    const controller = new AbortController();
    // Abort once the model is waiting on its slow response.
    const model = new ScriptedModel({
      script,
      sleep: (ms, signal) => {
        const slept = abortableSleep(ms, signal);
        controller.abort();
        return slept;
      },
    });
    const harness = createHarness({ model, workspace: await workspaceWith() });
    const { events, end } = await collectRun(
      harness,
      { conversation: [], text: 'hi' },
      undefined,
      controller.signal,
    );
    expect(end.stop_reason).toEqual({ type: 'interrupted' });
    expect(ofType(events, 'agent.message')).toHaveLength(0);
    expect(end.conversation.map((m) => m.role)).toEqual(['user']);
  });

  it('aborting during a slow tool cancels it and records an interrupted result', async () => {
    let toolSawAbort = false;
    const controller = new AbortController();
    const sleeper: HarnessTool = {
      name: 'sleep',
      description: 'sleeps',
      inputSchema: { type: 'object' },
      idempotent: true,
      toolset: 'custom',
      execute: (_input, { signal }) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            toolSawAbort = true;
            reject(new Error('aborted'));
          });
          // Abort once the tool is running: it runs until then.
          controller.abort();
        }),
    };
    const script = { turns: [{ reply: [{ toolCall: { name: 'sleep' } }, 'unreachable'] }] };
    const harness = createHarness({
      model: new ScriptedModel({ script }),
      workspace: await workspaceWith(),
      tools: [sleeper],
    });
    // The tool runs until aborted: the run ends through the abort or not at all.
    const { events, end } = await collectRun(
      harness,
      { conversation: [], text: 'nap' },
      undefined,
      controller.signal,
    );
    expect(toolSawAbort).toBe(true);
    expect(end.stop_reason).toEqual({ type: 'interrupted' });
    expect(JSON.stringify(ofType(events, 'agent.tool_result')[0]!.content)).toContain('interrupted');
    expect(end.conversation.at(-1)?.role).toBe('tool');
  });
});

describe('crash recovery', () => {
  it('re-runs interrupted idempotent calls and reports the others as possibly run', async () => {
    const ran: string[] = [];
    const tool = (name: string, idempotent: boolean): HarnessTool => ({
      name,
      description: name,
      inputSchema: { type: 'object' },
      idempotent,
      toolset: 'custom',
      execute: () => {
        ran.push(name);
        return Promise.resolve({ status: 'ok', content: [{ type: 'text', text: `${name} ok` }] });
      },
    });
    const conversation = [
      { role: 'user' as const, content: [{ type: 'text' as const, text: 'go' }] },
      {
        role: 'assistant' as const,
        content: [],
        toolCalls: [
          { id: 'sevt_read', name: 'lookup', input: {} },
          { id: 'sevt_pay', name: 'pay', input: {} },
        ],
      },
    ];
    const harness = createHarness({
      model: new ScriptedModel(),
      workspace: await workspaceWith(),
      tools: [tool('lookup', true), tool('pay', false)],
      disableMemoryHooks: true,
    });
    const { events } = await collectRun(harness, {
      conversation,
      cutOff: { sevt_read: {}, sevt_pay: {} },
    });
    expect(ran).toEqual(['lookup']);
    const results = ofType(events, 'agent.tool_result');
    expect(results.map((r) => [r.tool_use_id, r.is_error])).toEqual([
      ['sevt_read', false],
      ['sevt_pay', true],
    ]);
    expect(JSON.stringify(results[1]!.content)).toContain('may or may not have run');
  });
});
