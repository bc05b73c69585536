import { describe, expect, it } from 'vitest';
import { createHarness } from '../harness.js';
import { COMPACTION_SYSTEM_PROMPT } from '../context/compaction-prompt.js';
import { estimateConversationTokens } from '../context/token-estimate.js';
import type { ChatMessage, ModelPort, ModelRequest, ModelStreamEvent } from '../model/model-port.js';
import { ScriptedModel } from '../scripted/scripted-model.js';
import type { HarnessTool } from '../tools/tool.js';
import { readFileTool } from '../tools/builtin/file-read.tools.js';
import { collectRun, ofType, workspaceWith } from './run-collect.fixture.js';

/** The events as an async stream: each arrives on a later tick, as a streamed response's does. */
async function* streamOf<T>(...events: T[]): AsyncGenerator<T> {
  for (const event of events) yield await Promise.resolve(event);
}

const WINDOW = 40_000;
const TURNS = 200;

/** A tool whose every output is far over the eviction threshold, with a marker per call. */
const bigOutput: HarnessTool = {
  name: 'dump',
  description: 'prints a large report',
  inputSchema: { type: 'object', properties: { n: { type: 'number' } } },
  idempotent: true,
  toolset: 'custom',
  execute: (input) =>
    Promise.resolve({
      status: 'ok',
      content: [{ type: 'text', text: `REPORT-${String(input.n)}|${'r'.repeat(90_000)}|END` }],
    }),
};

/** The scripted model, plus a canned summary for the compaction call, recording what each request weighed. */
function modelUnderTest(): ModelPort & { peakTokens: number; compactions: number } {
  const scripted = new ScriptedModel({
    contextWindow: WINDOW,
    script: {
      turns: [
        { match: '^step (\\d+)$', reply: [{ toolCall: { name: 'dump', input: { n: 0 } } }, 'Step done.'] },
      ],
    },
  });
  const port = {
    id: scripted.id,
    contextWindow: WINDOW,
    peakTokens: 0,
    compactions: 0,
    stream(request: ModelRequest, signal?: AbortSignal) {
      port.peakTokens = Math.max(port.peakTokens, estimateConversationTokens(request.messages));
      const isSummary = request.messages.some(
        (m) => m.role === 'system' && m.content === COMPACTION_SYSTEM_PROMPT,
      );
      if (!isSummary) return scripted.stream(request, signal);
      port.compactions += 1;
      return streamOf<ModelStreamEvent>({
        type: 'done',
        message: {
          role: 'assistant',
          content: [{ type: 'text', text: 'SESSION INTENT: run steps. SUMMARY: steps ran.' }],
        },
        stopReason: 'end_turn',
        usage: { inputTokens: 10, outputTokens: 10 },
      });
    },
  };
  return port;
}

function unpairedToolCalls(conversation: ChatMessage[]): string[] {
  const results = new Set(conversation.flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : [])));
  return conversation
    .flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.id) : []))
    .filter((id) => !results.has(id));
}

describe('a long scripted conversation', () => {
  it(`stays under its context budget for ${TURNS} turns, keeps tool calls paired, and evicted outputs stay readable`, async () => {
    const fs = await workspaceWith();
    const model = modelUnderTest();
    const harness = createHarness({
      model,
      workspace: fs,
      tools: [bigOutput],
      disableMemoryHooks: true,
      disableSessionPersistence: true,
    });
    let conversation: ChatMessage[] = [];
    const evicted: string[] = [];
    for (let turn = 0; turn < TURNS; turn += 1) {
      const { events, end } = await collectRun(harness, { conversation, text: `step ${turn}` });
      expect(end.stop_reason).toEqual({ type: 'end_turn' });
      const use = ofType(events, 'agent.tool_use')[0]!;
      evicted.push(use.id);
      conversation = end.conversation;
      expect(unpairedToolCalls(conversation)).toEqual([]);
    }
    expect(model.compactions).toBeGreaterThan(5);
    expect(model.peakTokens).toBeLessThan(WINDOW);
    expect(estimateConversationTokens(conversation)).toBeLessThan(WINDOW - 20_000);

    // Every evicted output is still whole in the workspace, and read_file gives it back.
    const listing = await fs.list('large_tool_results');
    expect(listing.filter((f) => f.kind === 'file')).toHaveLength(TURNS);
    const first = listing.find((f) => f.path.includes(evicted[0]!))!;
    const read = await readFileTool.execute(
      { path: first.path },
      { toolCallId: 'x', fs, signal: new AbortController().signal, sessionId: 's', agentId: 'a', values: {} },
    );
    expect(read.status).toBe('ok');
    const text =
      read.status === 'ok' ? read.content.map((b) => (b.type === 'text' ? b.text : '')).join('') : '';
    expect(text).toContain('REPORT-0|');
    expect(text).toContain('|END');
  }, 120_000);
});
