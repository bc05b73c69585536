import { describe, expect, it, vi } from 'vitest';
import { seededWorkspace } from '../context/memory-workspace.fixture.js';
import type { HarnessTool, ToolContext, ToolOutcome } from '../tools/tool.js';
import { loadSubagentSpecs } from './subagent-loader.js';
import { SubagentRegistry } from './subagent-registry.js';
import type { ChildRunner, ChildThreadEvent } from './subagent-runner.js';
import { SubagentTaskRegistry } from './subagent-task-registry.js';
import { createSubagentTools } from './subagent-tools.js';
import { createTaskTools } from './task.tools.js';
import { withFinalText } from './subagent-runner.js';
import { SubRootFs } from './sub-root-fs.js';
import { WorkspaceTaskStore } from './workspace-task.store.js';

/** The events as an async stream: each arrives on a later tick, as a streamed response's does. */
async function* streamOf<T>(...events: T[]): AsyncGenerator<T> {
  for (const event of events) yield await Promise.resolve(event);
}

interface Gate {
  promise: Promise<void>;
  open: () => void;
}
function gate(): Gate {
  let open = () => {};
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

const outText = (outcome: ToolOutcome) =>
  outcome.status !== 'pending' && outcome.content[0]?.type === 'text' ? outcome.content[0].text : '';

async function setup(runChild: ChildRunner<{ type: string; text: string }>) {
  const agents = new SubagentRegistry();
  agents.register({ id: 'reviewer', description: 'Reviews code', systemPrompt: 'Review.' });
  agents.register({
    id: 'helper',
    description: 'Shared helper',
    systemPrompt: 'Help.',
    workspaceMode: 'shared',
  });
  const registry = new SubagentTaskRegistry();
  const events: ChildThreadEvent[] = [];
  const tools = createSubagentTools({ registry, agents, runChild, onChildEvent: (e) => events.push(e) });
  const byName = (name: string) => tools.find((t) => t.name === name) as HarnessTool;
  const fs = await seededWorkspace();
  const ctx = (toolCallId: string, signal = new AbortController().signal): ToolContext => ({
    toolCallId,
    fs,
    signal,
    sessionId: 's1',
    agentId: 'main',
    values: {},
  });
  return { registry, events, byName, fs, ctx };
}

describe('sub-agent tools', () => {
  it('agent_spawn waits for the answer, tags child events, and isolates or shares the workspace', async () => {
    const { byName, events, fs, ctx } = await setup(async function* (spec, task, _signal, child) {
      yield { type: 'agent.message', text: `working on ${task}` };
      await child.fs.writeText('notes.md', `notes by ${spec.id}`);
      return `${spec.id} says: done with ${task}`;
    });
    const out = await byName('agent_spawn').execute({ agent_id: 'reviewer', task: 'PR 7' }, ctx('toolu_1'));
    expect(out.status).toBe('ok');
    expect(outText(out)).toContain('status: completed');
    expect(outText(out)).toContain('reviewer says: done with PR 7');
    const taskId = /task_id: (\S+)/.exec(outText(out))?.[1] as string;
    expect(events).toEqual([
      {
        thread_id: taskId,
        parent_tool_use_id: 'toolu_1',
        task_id: taskId,
        agent_id: 'reviewer',
        event: { type: 'agent.message', text: 'working on PR 7' },
      },
    ]);
    expect(await fs.readText(`subagents_ws/${taskId}/notes.md`)).toBe('notes by reviewer');
    expect(await fs.exists('notes.md')).toBe(false);

    await byName('agent_spawn').execute({ agent_id: 'helper', task: 'x' }, ctx('toolu_2'));
    expect(await fs.readText('notes.md')).toBe('notes by helper');
    expect(
      (await byName('agent_spawn').execute({ agent_id: 'ghost', task: 'x' }, ctx('toolu_3'))).status,
    ).toBe('error');
  });

  it('runs in the background, lists and collects results with task_output and wait_async_results', async () => {
    const release = gate();
    const { byName, registry, ctx } = await setup(async function* (_spec, task) {
      await release.promise;
      return `answer to ${task}`;
    });
    const started = await byName('agent_spawn').execute(
      { agent_id: 'reviewer', task: 'A', run_in_background: true, label: 'first' },
      ctx('t1'),
    );
    const second = await byName('agent_spawn').execute(
      { agent_id: 'reviewer', task: 'B', timeout_seconds: 0 },
      ctx('t2'),
    );
    const idA = /task_id: (\S+)/.exec(outText(started))?.[1] as string;
    const idB = /task_id: (\S+)/.exec(outText(second))?.[1] as string;
    expect(outText(started)).toContain('status: running');
    expect(outText(await byName('task_list').execute({ status_filter: 'running' }, ctx('t3')))).toContain(
      `${idA}\trunning\treviewer\tfirst`,
    );
    expect(outText(await byName('task_output').execute({ task_id: idA }, ctx('t4')))).toContain(
      'status: running',
    );

    release.open();
    const waited = await byName('wait_async_results').execute(
      { task_ids: `${idA}, ${idB}`, timeout_seconds: 5 },
      ctx('t5'),
    );
    expect(outText(waited)).toContain('answer to A');
    expect(outText(waited)).toContain('answer to B');
    expect(outText(await byName('task_output').execute({ task_id: idB, block: true }, ctx('t6')))).toContain(
      'status: completed\n\nanswer to B',
    );
    expect(registry.list('completed')).toHaveLength(2);
  });

  it('task_cancel aborts a running child and wakes waiters', async () => {
    const aborted = vi.fn();
    const { byName, registry, ctx } = await setup(async function* (_spec, _task, signal) {
      await new Promise<void>((resolve) =>
        signal.addEventListener('abort', () => (aborted(), resolve()), { once: true }),
      );
      yield { type: 'late', text: 'should not surface' };
      return 'never';
    });
    const started = await byName('agent_spawn').execute(
      { agent_id: 'reviewer', task: 'long', run_in_background: true },
      ctx('t1'),
    );
    const id = /task_id: (\S+)/.exec(outText(started))?.[1] as string;
    const waiting = byName('wait_async_results').execute({ timeout_seconds: 60 }, ctx('t2'));
    expect(outText(await byName('task_cancel').execute({ task_id: id }, ctx('t3')))).toBe(`Cancelled ${id}.`);
    expect(outText(await waiting)).toContain('status: cancelled');
    expect(aborted).toHaveBeenCalledOnce();
    expect(registry.get(id)?.status).toBe('cancelled');
    expect((await byName('task_cancel').execute({ task_id: 'nope' }, ctx('t4'))).status).toBe('error');
  });

  it('a synchronous spawn past its timeout keeps running and returns the task id; interrupting the parent cancels it', async () => {
    const { byName, registry, ctx } = await setup(async function* (_spec, _task, signal) {
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      return 'stopped';
    });
    const timedOut = await byName('agent_spawn').execute(
      { agent_id: 'reviewer', task: 'slow', timeout_seconds: 0.05 },
      ctx('t1'),
    );
    expect(outText(timedOut)).toContain('status: running');
    const parent = new AbortController();
    const pending = byName('agent_spawn').execute(
      { agent_id: 'reviewer', task: 'slow' },
      ctx('t2', parent.signal),
    );
    parent.abort();
    const interrupted = await pending;
    expect(interrupted.status).toBe('error');
    expect(outText(interrupted)).toContain('status: cancelled');
    registry.cancelAll();
    expect(registry.list('running')).toHaveLength(0);
  });
});

describe('task records in the workspace', () => {
  it('survive into a new registry: finished tasks keep their answer, running ones become failed', async () => {
    const fs = await seededWorkspace();
    const store = new WorkspaceTaskStore(fs, 'main', 'sesn_1');
    const registry = new SubagentTaskRegistry({ onChange: (records) => void store.save(records) });
    const done = registry.start(
      { agentId: 'reviewer', task: 'a', background: true, parentToolUseId: 't1' },
      () => Promise.resolve('answer A'),
    );
    const hanging = registry.start(
      { agentId: 'reviewer', task: 'b', background: true, parentToolUseId: 't2' },
      () => new Promise<string>(() => {}),
    );
    await registry.wait([done.id], { timeoutMs: 1_000 });
    await store.flushed();
    expect(store.path).toBe('agents/main/tasks/sesn_1.json');

    const next = new SubagentTaskRegistry();
    next.restore(await new WorkspaceTaskStore(fs, 'main', 'sesn_1').load());
    expect(next.get(done.id)).toMatchObject({ status: 'completed', result: 'answer A', agentId: 'reviewer' });
    expect(next.get(done.id)?.createdAt).toBeInstanceOf(Date);
    expect(next.get(hanging.id)).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('interrupted') as unknown,
    });
    const [output] = createTaskTools(next);
    const text = await output!.execute(
      { task_id: done.id },
      {
        toolCallId: 'x',
        fs,
        signal: new AbortController().signal,
        sessionId: 's',
        agentId: 'main',
        values: {},
      },
    );
    expect(outText(text)).toContain('answer A');
    registry.cancelAll();
  });
});

describe('isolated child workspace', () => {
  it('confines the child to its sub-root and reports paths relative to it', async () => {
    const parent = await seededWorkspace({ 'secret.txt': 'parent only', 'subagents_ws/t1/in.txt': 'mine' });
    const child = new SubRootFs(parent, 'subagents_ws/t1');
    expect(await child.readText('in.txt')).toBe('mine');
    await expect(child.readText('../../secret.txt')).rejects.toMatchObject({ code: 'PATH_ESCAPE' });
    await expect(child.readText('/secret.txt')).rejects.toMatchObject({ code: 'PATH_ESCAPE' });
    await child.writeText('out/result.md', 'done');
    expect(await parent.readText('subagents_ws/t1/out/result.md')).toBe('done');
    expect((await child.list('', { recursive: true })).map((s) => s.path).sort()).toEqual([
      'in.txt',
      'out',
      'out/result.md',
    ]);
    expect((await child.grep('done')).map((m) => m.path)).toEqual(['out/result.md']);
  });

  it('withFinalText adapts a plain event stream to a child run with a final answer', async () => {
    const events = streamOf(
      { type: 'agent.message', text: 'first' },
      { type: 'agent.tool_use', text: '' },
      { type: 'agent.message', text: 'final answer' },
    );
    const run = withFinalText(events, (e) => (e.type === 'agent.message' ? e.text : undefined));
    const seen: string[] = [];
    let step = await run.next();
    while (!step.done) {
      seen.push(step.value.type);
      step = await run.next();
    }
    expect(seen).toEqual(['agent.message', 'agent.tool_use', 'agent.message']);
    expect(step.value).toBe('final answer');
  });
});

describe('sub-agent declarations', () => {
  it('loads subagents/<id>.md, skips invalid files, and lets code registration override', async () => {
    const fs = await seededWorkspace({
      'subagents/reviewer.md':
        '---\ndescription: Code reviewer\nworkspace:\n  mode: shared\nmodel: openai/gpt-4.1\ntools: [read_file, grep_files]\nmaxIters: 5\n---\nYou review code.\n',
      'subagents/writer.md': '---\ndescription: Writer\nworkspace:\n  path: agents/writer\n---\n',
      'agents/writer/AGENTS.md': 'You write docs.',
      'subagents/bad.md': '---\nworkspace: {mode: sideways}\ndescription: x\n---\n',
      'subagents/nested/deep.md': '---\ndescription: ignored\n---\n',
    });
    const warn = vi.fn();
    const specs = await loadSubagentSpecs(fs, { logger: { warn } });
    expect(specs).toEqual([
      {
        id: 'reviewer',
        description: 'Code reviewer',
        systemPrompt: 'You review code.',
        workspaceMode: 'shared',
        model: 'openai/gpt-4.1',
        tools: ['read_file', 'grep_files'],
        maxIters: 5,
        source: 'file',
      },
      {
        id: 'writer',
        description: 'Writer',
        systemPrompt: 'You write docs.',
        workspaceMode: 'isolated',
        maxIters: 10,
        source: 'file',
      },
    ]);
    expect(warn).toHaveBeenCalledWith(
      'sub-agent declaration skipped',
      expect.objectContaining({ path: 'subagents/bad.md' }),
    );
    const registry = new SubagentRegistry(specs);
    registry.register({ id: 'reviewer', description: 'Code-defined', systemPrompt: 'From code.' });
    expect(registry.get('reviewer')).toMatchObject({
      description: 'Code-defined',
      source: 'code',
      workspaceMode: 'isolated',
    });
    expect(registry.list().map((s) => s.id)).toEqual(['reviewer', 'writer']);
  });

  it('reads `model:` written as a config object, and skips one without an id', async () => {
    const fs = await seededWorkspace({
      'subagents/fast.md':
        '---\ndescription: Fast\nmodel: {id: scripted/fast, script: {turns: [{reply: [hi]}]}}\n---\nBe quick.\n',
      'subagents/nameless.md': '---\ndescription: Nameless\nmodel: {speed: fast}\n---\nx\n',
    });
    const warn = vi.fn();
    const specs = await loadSubagentSpecs(fs, { logger: { warn } });
    expect(specs).toEqual([
      expect.objectContaining({
        id: 'fast',
        model: 'scripted/fast',
        modelSettings: { script: { turns: [{ reply: ['hi'] }] } },
      }),
    ]);
    expect(warn).toHaveBeenCalledWith(
      'sub-agent declaration skipped',
      expect.objectContaining({ path: 'subagents/nameless.md' }),
    );
  });
});
