import { describe, expect, it } from 'vitest';
import { createHarness } from '../harness.js';
import { collectRun, ofType, workspaceWith } from '../loop/run-collect.fixture.js';
import type { Clock } from '../loop/ports.js';
import type { ModelPort, ModelRequest } from '../model/model-port.js';
import { ScriptedModel } from '../scripted/scripted-model.js';
import type { HarnessTool } from '../tools/tool.js';

/** A tool that finishes only when the test says so. */
function gatedTool(): { tool: HarnessTool; release: (text: string) => void } {
  let release!: (text: string) => void;
  const gate = new Promise<string>((resolve) => (release = resolve));
  return {
    release: (text) => release(text),
    tool: {
      name: 'crawl',
      description: 'slow crawl',
      inputSchema: { type: 'object' },
      idempotent: true,
      toolset: 'custom',
      execute: async () => ({ status: 'ok', content: [{ type: 'text', text: await gate }] }),
    },
  };
}

/** Fake clock: sleeps resolve only when advance() passes their deadline. */
function fakeClock(): Clock & { advance(ms: number): void } {
  let now = 0;
  const timers: { at: number; resolve: () => void }[] = [];
  return {
    now: () => new Date(now),
    sleep: (ms, signal) =>
      new Promise((resolve, reject) => {
        const timer = { at: now + ms, resolve };
        timers.push(timer);
        signal?.addEventListener('abort', () => {
          timers.splice(timers.indexOf(timer), 1);
          reject(new Error('aborted'));
        });
      }),
    advance(ms) {
      now += ms;
      for (const t of timers.filter((x) => x.at <= now)) {
        timers.splice(timers.indexOf(t), 1);
        t.resolve();
      }
    },
  };
}

function recording(model: ModelPort): ModelPort & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    id: model.id,
    contextWindow: model.contextWindow,
    requests,
    stream: (req, signal) => (requests.push(req), model.stream(req, signal)),
  };
}

describe('async offload', () => {
  it('returns a placeholder after the offload timeout and delivers the real result into the next run', async () => {
    const { tool, release } = gatedTool();
    const clock = fakeClock();
    const script = {
      turns: [{ match: 'crawl', reply: [{ toolCall: { name: 'crawl' } }, 'started in background'] }],
    };
    const model = recording(new ScriptedModel({ script }));
    const harness = createHarness({
      model,
      workspace: await workspaceWith(),
      tools: [tool],
      clock,
      offloadTimeoutMs: { crawl: 5_000 },
    });

    let finished = false;
    const running = collectRun(harness, { conversation: [], text: 'crawl the site' }).finally(
      () => (finished = true),
    );
    // Time only moves when the test moves it: keep advancing until the run gives up waiting on the tool.
    while (!finished) {
      await new Promise((r) => setImmediate(r));
      clock.advance(1_000);
    }
    const first = await running;
    const placeholder = JSON.stringify(ofType(first.events, 'agent.tool_result')[0]!.content);
    expect(placeholder).toContain('still running');
    expect(first.end.stop_reason).toEqual({ type: 'end_turn' });
    expect(first.end.pending_tasks).toHaveLength(1);
    const taskId = first.end.pending_tasks[0]!;
    expect(placeholder).toContain(taskId);

    release('found 42 pages');
    await harness.settled();
    expect(harness.runningTasks()).toEqual([]);

    const second = await collectRun(harness, { conversation: first.end.conversation, text: 'any news?' });
    const injected = second.end.conversation.filter((m) => m.role === 'user').at(-1)!;
    expect(JSON.stringify(injected.content)).toContain('found 42 pages');
    expect(JSON.stringify(injected.content)).toContain(taskId);
    expect(JSON.stringify(model.requests.at(-1)!.messages)).toContain('found 42 pages');
    // Delivered once: a third run does not see it again as new.
    expect(harness.pendingResults()).toEqual([]);
  });

  it('a tool that finishes before its offload timeout returns its real result', async () => {
    const { tool, release } = gatedTool();
    release('quick');
    const script = { turns: [{ reply: [{ toolCall: { name: 'crawl' } }, 'ok'] }] };
    const harness = createHarness({
      model: new ScriptedModel({ script }),
      workspace: await workspaceWith(),
      tools: [tool],
      offloadTimeoutMs: { default: 1_000 },
    });
    const { events, end } = await collectRun(harness, { conversation: [], text: 'go' });
    expect(ofType(events, 'agent.tool_result')[0]!.content).toEqual([{ type: 'text', text: 'quick' }]);
    expect(end.pending_tasks).toEqual([]);
  });

  it('lets the caller collect finished results itself via pendingResults()', async () => {
    const { tool, release } = gatedTool();
    const script = { turns: [{ reply: [{ toolCall: { name: 'crawl' } }, 'later'] }] };
    const harness = createHarness({
      model: new ScriptedModel({ script }),
      workspace: await workspaceWith(),
      tools: [tool],
      offloadTimeoutMs: { crawl: 10 },
    });
    const first = await collectRun(harness, { conversation: [], text: 'go' });
    release('done later');
    await harness.settled();
    const results = harness.pendingResults('sess_1');
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({
      taskId: first.end.pending_tasks[0],
      toolName: 'crawl',
      outcome: { status: 'ok', content: [{ type: 'text', text: 'done later' }] },
    });
    expect(harness.pendingResults('sess_1')).toEqual([]);
  });
});
