/**
 * Harness overhead per turn: the scripted model (no network, no delays) on an in-memory workspace, one turn =
 * user message → read_file tool call → final answer (two model calls). Compares
 *   bare     a loop that only streams the model and runs the tool directly,
 *   minimal  the harness with every optional middleware switched off,
 *   default  the harness with its default middleware except transcript and memory flush (which add I/O
 *            and a third model call).
 * Run: npx tsx bench/harness/turn-overhead.ts   (bounded: ~6 s per variant, < 60 s total)
 */
import { rerunWithSources } from '../rerun-with-sources.js';

// Workspace packages resolve to their TypeScript sources only under the "source" condition: re-run with it.
rerunWithSources(import.meta.url, {});

const { createHarness, ScriptedModel, readFileTool } = await import('@agentry/harness');
const { MemoryWorkspaceFs } = await import('@agentry/workspace');
type ChatMessage = Parameters<ReturnType<typeof createHarness>['run']>[0]['conversation'][number];

const BUDGET_MS = 6_000;
const MAX_TURNS = 20_000;
const WARMUP_TURNS = 300;

const script = {
  turns: [
    { reply: [{ toolCall: { name: 'read_file', input: { path: 'notes.md' } } }, 'The launch is on Monday.'] },
  ],
};
const workspace = new MemoryWorkspaceFs();
await workspace.writeText('notes.md', 'The launch is on Monday.\n');
const context = { sessionId: 'bench', agentId: 'bench' };

async function bareTurn(model: InstanceType<typeof ScriptedModel>): Promise<void> {
  const conversation: ChatMessage[] = [
    { role: 'user', content: [{ type: 'text', text: 'When is the launch?' }] },
  ];
  const tools = [
    { name: readFileTool.name, description: readFileTool.description, inputSchema: readFileTool.inputSchema },
  ];
  for (;;) {
    let done: Extract<ChatMessage, { role: 'assistant' }> | undefined;
    for await (const event of model.stream({ messages: conversation, tools }))
      if (event.type === 'done') done = event.message;
    if (!done) throw new Error('no response');
    conversation.push(done);
    if (!done.toolCalls?.length) return;
    for (const call of done.toolCalls) {
      const signal = new AbortController().signal;
      const outcome = await readFileTool.execute(call.input, {
        toolCallId: call.id,
        fs: workspace,
        signal,
        sessionId: 'bench',
        agentId: 'bench',
        values: {},
      });
      if (outcome.status === 'pending') throw new Error('unexpected pending');
      conversation.push({ role: 'tool', toolCallId: call.id, toolName: call.name, content: outcome.content });
    }
  }
}

async function harnessTurn(harness: ReturnType<typeof createHarness>): Promise<void> {
  for await (const event of harness.run({ conversation: [], text: 'When is the launch?' }, context)) {
    if (event.type === 'run.end' && event.stop_reason.type !== 'end_turn')
      throw new Error(`unexpected stop ${event.stop_reason.type}`);
  }
}

async function measure(name: string, turn: () => Promise<void>): Promise<number> {
  for (let i = 0; i < WARMUP_TURNS; i++) await turn();
  const start = process.hrtime.bigint();
  let turns = 0;
  while (turns < MAX_TURNS && Number(process.hrtime.bigint() - start) / 1e6 < BUDGET_MS) {
    await turn();
    turns++;
  }
  const micros = Number(process.hrtime.bigint() - start) / 1e3 / turns;
  console.log(`${name.padEnd(8)} ${micros.toFixed(1).padStart(8)} µs/turn  (${turns} turns)`);
  return micros;
}

const model = new ScriptedModel({ script });
const minimal = createHarness({
  model,
  workspace,
  disableWorkspaceContext: true,
  disableMemoryHooks: true,
  disableMemoryTools: true,
  disableSubagents: true,
  disableDynamicSkills: true,
  disableToolsConfig: true,
  disableSessionPersistence: true,
  disableWebTools: true,
  disablePlanTools: true,
});
const defaults = createHarness({
  model,
  workspace,
  disableSessionPersistence: true,
  disableMemoryHooks: true,
});

console.log(`node ${process.version}, ${BUDGET_MS / 1000} s per variant, turn = 2 model calls + 1 read_file`);
const bare = await measure('bare', () => bareTurn(model));
const min = await measure('minimal', () => harnessTurn(minimal));
const def = await measure('default', () => harnessTurn(defaults));
console.log(`overhead minimal: ${(min - bare).toFixed(1)} µs/turn, ratio ${(min / bare).toFixed(2)}x`);
console.log(`overhead default: ${(def - bare).toFixed(1)} µs/turn, ratio ${(def / bare).toFixed(2)}x`);
