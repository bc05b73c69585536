import { describe, expect, it, vi } from 'vitest';
import { AppError } from '@agentry/contracts';
import { createHarness } from '../harness.js';
import type { ModelPort, ModelRequest } from '../model/model-port.js';
import { ScriptedModel } from '../scripted/scripted-model.js';
import type { HarnessTool } from '../tools/tool.js';
import { HarnessBuilder } from './harness-builder.js';
import { collectRun, ofType, workspaceWith } from './run-collect.fixture.js';

/** Wraps a model and records every request it receives. */
function recording(model: ModelPort): ModelPort & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    id: model.id,
    contextWindow: model.contextWindow,
    requests,
    stream: (req, signal) => (requests.push(req), model.stream(req, signal)),
  };
}

/** A tool that logs its start and runs until the test releases it by name. */
function gatedTool(name: string, log: string[], release: Map<string, () => void>): HarnessTool {
  return {
    name,
    description: 'waits then answers',
    inputSchema: { type: 'object', properties: {} },
    idempotent: true,
    toolset: 'custom',
    async execute(input) {
      log.push(`start:${name}`);
      await new Promise<void>((resolve) => release.set(name, resolve));
      log.push(`end:${name}`);
      return { status: 'ok', content: [{ type: 'text', text: `${name}:${JSON.stringify(input)}` }] };
    },
  };
}

describe('harness loop', () => {
  it('runs a tool call, feeds the result back and ends the turn', async () => {
    const fs = await workspaceWith({ 'notes.txt': 'alpha\nbeta\ngamma' });
    const model = recording(
      new ScriptedModel({
        script: {
          turns: [
            {
              reply: [
                { toolCall: { name: 'read_file', input: { path: 'notes.txt', offset: 1, limit: 1 } } },
                'The second line is beta.',
              ],
            },
          ],
        },
      }),
    );
    const harness = createHarness({ model, workspace: fs });
    const { events, end } = await collectRun(harness, { conversation: [], text: 'what is line 2?' });

    const use = ofType(events, 'agent.tool_use')[0]!;
    expect(use).toMatchObject({
      name: 'read_file',
      evaluated_permission: 'allow',
      input: { path: 'notes.txt', offset: 1, limit: 1 },
    });
    expect(use.id).toMatch(/^sevt_[0-9A-Z]{26}$/);
    const result = ofType(events, 'agent.tool_result')[0]!;
    expect(result.tool_use_id).toBe(use.id);
    expect(result.is_error).toBe(false);
    expect(JSON.stringify(result.content)).toContain('beta');
    expect(JSON.stringify(result.content)).not.toContain('alpha');
    expect(ofType(events, 'agent.message').map((e) => e.content[0]!.text)).toEqual([
      'The second line is beta.',
    ]);
    expect(end.stop_reason).toEqual({ type: 'end_turn' });
    expect(end.conversation.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    // The second model call saw the tool result under the same id as the event.
    const second = model.requests[1]!.messages.find((m) => m.role === 'tool');
    expect(second).toMatchObject({ toolCallId: use.id });
    expect(ofType(events, 'span.model_request_end')).toHaveLength(2);
    expect(end.usage.input_tokens).toBeGreaterThan(0);
    expect(end.usage.output_tokens).toBeGreaterThan(0);
    const ids = events.flatMap((e) => ('id' in e ? [e.id] : []));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('runs parallel tool calls concurrently and keeps results in call order', async () => {
    const log: string[] = [];
    const release = new Map<string, () => void>();
    const script = {
      turns: [
        {
          reply: [
            { toolCalls: [{ name: 'a', input: { n: 1 } }, { name: 'b', input: { n: 2 } }, { name: 'c' }] },
            'done',
          ],
        },
      ],
    };
    const harness = createHarness({
      model: new ScriptedModel({ script }),
      workspace: await workspaceWith(),
      tools: [gatedTool('a', log, release), gatedTool('b', log, release), gatedTool('c', log, release)],
      toolConcurrency: 2,
    });
    const running = collectRun(harness, { conversation: [], text: 'go' });
    const finish = async (name: string) => {
      await vi.waitFor(() => expect(release.has(name)).toBe(true), { interval: 1 });
      release.get(name)!();
    };
    // b finishes first, then c, then a (the order durations of 10, 30 and 60 ms would give).
    await finish('b');
    await finish('c');
    await finish('a');
    const { events, end } = await running;
    // With a bound of 2, a and b start before either ends; c starts only after b frees a slot.
    expect(log.slice(0, 2)).toEqual(['start:a', 'start:b']);
    expect(log.indexOf('start:c')).toBeGreaterThan(log.indexOf('end:b'));
    expect(log.indexOf('start:c')).toBeLessThan(log.indexOf('end:a'));
    const toolMessages = end.conversation.filter((m) => m.role === 'tool');
    expect(toolMessages.map((m) => (m.role === 'tool' ? m.toolName : ''))).toEqual(['a', 'b', 'c']);
    expect(ofType(events, 'agent.tool_result').map((e) => JSON.stringify(e.content))).toEqual([
      expect.stringContaining('a:{\\"n\\":1}'),
      expect.stringContaining('b:{\\"n\\":2}'),
      expect.stringContaining('c:{}'),
    ]);
  });

  it('retries a retryable model error and then succeeds', async () => {
    const script = {
      turns: [{ reply: [{ text: 'finally', error: { code: 'MODEL_OVERLOADED' as const, times: 2 } }] }],
    };
    const harness = createHarness({
      model: new ScriptedModel({ script }),
      workspace: await workspaceWith(),
      retryBackoffMs: 1,
    });
    const { events, end } = await collectRun(harness, { conversation: [], text: 'hi' });
    expect(ofType(events, 'span.model_request_end').map((e) => e.is_error)).toEqual([true, true, false]);
    // Each wait is announced before it starts, with the error that caused it.
    expect(
      ofType(events, 'session.error').map((e) => [e.error.code, e.retry_attempt, e.retry_in_ms]),
    ).toEqual([
      ['MODEL_OVERLOADED', 1, 1],
      ['MODEL_OVERLOADED', 2, 2],
    ]);
    expect(end.stop_reason).toEqual({ type: 'end_turn' });
    expect(ofType(events, 'agent.message')[0]!.content[0]!.text).toBe('finally');
  });

  it('stops with error when the model keeps failing, and with max_iters when it keeps calling tools', async () => {
    const failing = { turns: [{ reply: [{ error: { code: 'UNAUTHENTICATED' as const } }] }] };
    const a = createHarness({
      model: new ScriptedModel({ script: failing }),
      workspace: await workspaceWith(),
    });
    const failed = await collectRun(a, { conversation: [], text: 'hi' });
    expect(failed.end.stop_reason).toMatchObject({ type: 'error', error: { code: 'UNAUTHENTICATED' } });

    const looping = {
      turns: [
        {
          reply: Array.from({ length: 10 }, () => ({
            toolCall: { name: 'list_files', input: { path: '.' } },
          })),
        },
      ],
    };
    const b = createHarness({
      model: new ScriptedModel({ script: looping }),
      workspace: await workspaceWith({ 'x.md': 'x' }),
      maxIters: 3,
    });
    const capped = await collectRun(b, { conversation: [], text: 'loop' });
    expect(capped.end.stop_reason).toEqual({ type: 'max_iters' });
    expect(ofType(capped.events, 'span.model_request_start')).toHaveLength(3);
  });

  it('applies AGENTS.md from the workspace together with the configured system prompt', async () => {
    const model = recording(new ScriptedModel());
    const harness = new HarnessBuilder()
      .model(model)
      .workspace(await workspaceWith({ 'AGENTS.md': 'Always answer in French.' }))
      .systemPrompt('You are a careful assistant.')
      .build();
    await collectRun(harness, { conversation: [], text: 'bonjour' });
    const system = model.requests[0]!.messages[0]!;
    expect(system.role).toBe('system');
    expect(system.content).toContain('You are a careful assistant.');
    expect(system.content).toContain('Always answer in French.');

    const bare = recording(new ScriptedModel());
    const noContext = new HarnessBuilder()
      .model(bare)
      .workspace(await workspaceWith({ 'AGENTS.md': 'Always answer in French.' }))
      .disableWorkspaceContext()
      .build();
    await collectRun(noContext, { conversation: [], text: 'bonjour' });
    expect(JSON.stringify(bare.requests[0]!.messages)).not.toContain('French');
  });

  it('enforces the per-run token budget before the next model call', async () => {
    const looping = {
      turns: [
        {
          reply: Array.from({ length: 10 }, () => ({
            toolCall: { name: 'list_files', input: { path: '.' } },
          })),
        },
      ],
    };
    const harness = createHarness({
      model: new ScriptedModel({ script: looping }),
      workspace: await workspaceWith({ 'x.md': 'x' }),
      budgets: { maxTotalTokensPerRun: 1 },
    });
    const { events, end } = await collectRun(harness, { conversation: [], text: 'spend' });
    expect(end.stop_reason).toEqual({ type: 'budget_reached' });
    expect(ofType(events, 'span.model_request_start')).toHaveLength(1);
  });

  it('stops with budget_reached, not an error, when the model port refuses a call for budget', async () => {
    const inner = new ScriptedModel({
      script: { turns: [{ reply: [{ toolCall: { name: 'list_files', input: { path: '.' } } }, 'done'] }] },
    });
    let calls = 0;
    const metered: ModelPort = {
      id: inner.id,
      contextWindow: inner.contextWindow,
      stream(req, signal) {
        calls += 1;
        if (calls > 1) throw new AppError('BUDGET_EXCEEDED', 'budget of 0.01 USD is reached');
        return inner.stream(req, signal);
      },
    };
    const harness = createHarness({ model: metered, workspace: await workspaceWith({ 'x.md': 'x' }) });
    const { events, end } = await collectRun(harness, { conversation: [], text: 'spend' });
    expect(end.stop_reason).toEqual({ type: 'budget_reached' });
    expect(ofType(events, 'agent.tool_result')).toHaveLength(1);
    expect(calls).toBe(2);
  });

  it('continues a conversation passed in from outside without keeping state between runs', async () => {
    const harness = createHarness({ model: new ScriptedModel(), workspace: await workspaceWith() });
    const first = await collectRun(harness, { conversation: [], text: 'one' });
    const other = createHarness({ model: new ScriptedModel(), workspace: await workspaceWith() });
    const second = await collectRun(other, { conversation: first.end.conversation, text: 'two' });
    expect(second.end.conversation).toHaveLength(4);
    expect(ofType(second.events, 'agent.message')[0]!.content[0]!.text).toBe('You said: two');
    // A run with nothing new does not call the model.
    const idle = await collectRun(other, { conversation: second.end.conversation });
    expect(ofType(idle.events, 'span.model_request_start')).toHaveLength(0);
    expect(idle.end.stop_reason).toEqual({ type: 'end_turn' });
  });

  it('the builder produces the same configuration as the config object', async () => {
    const model = new ScriptedModel();
    const workspace = await workspaceWith();
    const config = new HarnessBuilder()
      .model(model)
      .workspace(workspace)
      .systemPrompt('p')
      .permission('write_file', 'always_ask')
      .toolsetPermission('mcp:*', 'deny')
      .maxIters(5)
      .offloadTimeout('crawl', 100)
      .disableMemoryHooks()
      .disableSessionPersistence()
      .toConfig();
    expect(config).toEqual({
      model,
      workspace,
      systemPrompt: 'p',
      permissions: { tools: { write_file: 'always_ask' }, toolsets: { 'mcp:*': 'deny' } },
      maxIters: 5,
      offloadTimeoutMs: { crawl: 100 },
      disableMemoryHooks: true,
      disableSessionPersistence: true,
    });
    expect(() => new HarnessBuilder().model(model).build()).toThrow(/workspace/);
  });

  it('streams text and tool-input previews and emits thinking before the message', async () => {
    const script = {
      chunkSize: 5,
      turns: [
        {
          reply: [
            {
              thinking: 'let me look',
              text: 'Checking now.',
              toolCall: { name: 'list_files', input: { path: '.' } },
            },
            'All good.',
          ],
        },
      ],
    };
    const harness = createHarness({
      model: new ScriptedModel({ script }),
      workspace: await workspaceWith({ 'a.md': 'a' }),
      disableMemoryHooks: true,
    });
    const { events } = await collectRun(harness, { conversation: [], text: 'check' });
    const firstCall = events.slice(0, events.findIndex((e) => e.type === 'agent.tool_use') + 1);
    expect(ofType(firstCall, 'delta.text').map((e) => e.text)).toEqual(['Check', 'ing n', 'ow.']);
    // Previews name the event they preview, so a stream can match them to the final event.
    expect(new Set(ofType(firstCall, 'delta.text').map((e) => e.event_id))).toEqual(
      new Set([ofType(firstCall, 'agent.message')[0]!.id]),
    );
    expect(ofType(firstCall, 'delta.thinking')).toEqual([
      { type: 'delta.thinking', event_id: ofType(firstCall, 'agent.thinking')[0]!.id, text: 'let me look' },
    ]);
    const use = ofType(events, 'agent.tool_use')[0]!;
    expect(ofType(events, 'delta.tool_input')).toEqual([
      { type: 'delta.tool_input', tool_use_id: use.id, partial_json: '{"path":"."}' },
    ]);
    expect(firstCall.filter((e) => 'id' in e).map((e) => e.type)).toEqual([
      'span.model_request_start',
      'span.model_request_end',
      'agent.thinking',
      'agent.message',
      'agent.tool_use',
    ]);
    expect(ofType(events, 'agent.thinking')[0]!.content).toEqual([{ type: 'text', text: 'let me look' }]);
  });
});
