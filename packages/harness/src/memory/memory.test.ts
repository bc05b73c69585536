import type { MemoryWorkspaceFs } from '@agentry/workspace';
import { beforeAll, describe, expect, it } from 'vitest';
import { allFilePaths, seededWorkspace } from '../context/memory-workspace.fixture.js';
import { ScriptedModelFixture } from '../context/scripted-model.fixture.js';
import type { ChatMessage, ModelRequest } from '../model/model-port.js';
import type { HarnessTool, ToolContext, ToolOutcome } from '../tools/tool.js';
import { consolidateMemory } from './memory-consolidation.js';
import { flushMemory } from './memory-flush.js';
import { pruneDailyMemory } from './memory-retention.js';
import { createMemoryTools } from './memory.tools.js';
import { createSessionSearchTool } from './session-search.tool.js';
import { WorkspaceSessionLogs } from '../transcript/workspace-session-logs.js';

const clockAt = (iso: string) => {
  let now = new Date(iso);
  return { now: () => now, set: (next: string) => (now = new Date(next)) };
};
const conversation: ChatMessage[] = [
  { role: 'user', content: [{ type: 'text', text: 'I prefer answers in French. Deadline is Friday.' }] },
  { role: 'assistant', content: [{ type: 'text', text: 'Noted.' }] },
];
const userText = (request: ModelRequest) => {
  const m = request.messages.at(-1);
  return m?.role === 'user' && m.content[0]?.type === 'text' ? m.content[0].text : '';
};
const outText = (o: ToolOutcome) =>
  o.status !== 'pending' && o.content[0]?.type === 'text' ? o.content[0].text : '';
const ctx = (fs: MemoryWorkspaceFs): ToolContext => ({
  toolCallId: 't',
  fs,
  signal: new AbortController().signal,
  sessionId: 's',
  agentId: 'agent-1',
  values: {},
});

describe('memory flush', () => {
  it("appends the extracted facts to today's ledger, showing MEMORY.md as read-only context", async () => {
    const fs = await seededWorkspace({ 'MEMORY.md': '- The user is Ana.' });
    const model = new ScriptedModelFixture(() => '- Ana prefers answers in French.\n- Deadline: Friday.');
    const result = await flushMemory({
      fs,
      model,
      conversationSlice: conversation,
      clock: clockAt('2026-11-30T10:00:00Z'),
    });
    expect(result.path).toBe('memory/2026-11-30.md');
    const ledger = await fs.readText('memory/2026-11-30.md');
    expect(ledger).toContain(
      '## Memory Flush — 2026-11-30T10:00:00.000Z\n- Ana prefers answers in French.\n- Deadline: Friday.',
    );
    expect(userText(model.requests[0] as ModelRequest)).toContain('MEMORY.md (read-only');
    expect(userText(model.requests[0] as ModelRequest)).toContain('I prefer answers in French.');
    expect(await fs.readText('MEMORY.md')).toBe('- The user is Ana.');
  });

  it('writes nothing when the model replies NO_REPLY', async () => {
    const fs = await seededWorkspace();
    const result = await flushMemory({
      fs,
      model: new ScriptedModelFixture(() => 'NO_REPLY'),
      conversationSlice: conversation,
      clock: clockAt('2026-11-30T10:00:00Z'),
    });
    expect(result).toEqual({});
    expect((await allFilePaths(fs)).length).toBe(0);
  });
});

describe('memory consolidation', () => {
  it('merges new ledger entries into MEMORY.md at most once per interval, tracking a watermark in the workspace', async () => {
    const fs = await seededWorkspace({ 'MEMORY.md': '- old fact', 'memory/2026-11-30.md': '- fact A\n' });
    const model = new ScriptedModelFixture(
      (r) =>
        `# Memory\n${
          userText(r)
            .match(/- fact \w/g)
            ?.join('\n') ?? ''
        }`,
    );
    const clock = clockAt('2026-11-30T10:00:00Z');
    const first = await consolidateMemory({ fs, model, clock, minIntervalMs: 60_000 });
    expect(first).toEqual({ status: 'consolidated', ledgers: ['memory/2026-11-30.md'] });
    expect(await fs.readText('MEMORY.md')).toBe('# Memory\n- fact A\n');

    await fs.appendText('memory/2026-11-30.md', '- fact B\n');
    clock.set('2026-11-30T10:00:30Z');
    const tooSoon = await consolidateMemory({ fs, model, clock, minIntervalMs: 60_000 });
    expect(tooSoon.status).toBe('too_soon');
    expect(model.requests).toHaveLength(1);

    clock.set('2026-11-30T10:01:00Z');
    expect((await consolidateMemory({ fs, model, clock, minIntervalMs: 60_000 })).status).toBe(
      'consolidated',
    );
    expect(userText(model.requests[1] as ModelRequest)).toContain('- fact B');
    expect(userText(model.requests[1] as ModelRequest).split('New daily entries:')[1]).not.toContain(
      'fact A',
    );
    expect(JSON.parse(await fs.readText('memory/.consolidation.json'))).toEqual({
      lastRunAt: '2026-11-30T10:01:00.000Z',
      offsets: { 'memory/2026-11-30.md': 18 },
    });
    clock.set('2026-11-30T11:00:00Z');
    expect(await consolidateMemory({ fs, model, clock, minIntervalMs: 60_000 })).toEqual({
      status: 'nothing_new',
    });
    expect(model.requests).toHaveLength(2);
  });
});

describe('memory consolidation input cap', () => {
  it('merges ledgers oldest first up to the cap and leaves the rest for the next run', async () => {
    const fs = await seededWorkspace({
      'memory/2026-11-28.md': '- fact one\n',
      'memory/2026-11-29.md': '- fact two\n',
    });
    const model = new ScriptedModelFixture(
      (r) =>
        userText(r)
          .match(/- fact \w+/g)
          ?.join('\n') ?? 'NO_REPLY',
    );
    const clock = clockAt('2026-11-30T10:00:00Z');
    const first = await consolidateMemory({ fs, model, clock, minIntervalMs: 0, maxInputChars: 12 });
    expect(first).toEqual({ status: 'consolidated', ledgers: ['memory/2026-11-28.md'] });
    expect(userText(model.requests[0] as ModelRequest)).not.toContain('fact two');
    const second = await consolidateMemory({ fs, model, clock, minIntervalMs: 0, maxInputChars: 12 });
    expect(second).toEqual({ status: 'consolidated', ledgers: ['memory/2026-11-29.md'] });
    expect(userText(model.requests[1] as ModelRequest).split('New daily entries:')[1]).toContain('fact two');
  });
});

describe('memory retention', () => {
  it('deletes daily ledgers older than keepDays and keeps the rest', async () => {
    const fs = await seededWorkspace({
      'memory/2026-08-01.md': 'a',
      'memory/2026-11-01.md': 'b',
      'memory/2026-11-30.md': 'c',
      'memory/notes.md': 'd',
    });
    const deleted = await pruneDailyMemory(fs, { keepDays: 29, clock: clockAt('2026-11-30T10:00:00Z') });
    expect(deleted).toEqual(['memory/2026-08-01.md']);
    expect(await allFilePaths(fs)).toEqual([
      'memory/2026-11-01.md',
      'memory/2026-11-30.md',
      'memory/notes.md',
    ]);
  });
});

describe('memory tools', () => {
  let fs: MemoryWorkspaceFs;
  let tools: HarnessTool[];
  beforeAll(async () => {
    fs = await seededWorkspace({
      'MEMORY.md': '# Prefs\n- Ana prefers French answers\n- Ana uses Postgres 15',
      'memory/2026-11-29.md': '## Flush\n- Deploy window is Friday evening\n- Postgres upgrade planned',
      'notes/other.md': 'Postgres Postgres Postgres',
    });
    tools = createMemoryTools(fs, { clock: clockAt('2026-11-30T10:00:00Z') });
  });
  const tool = (name: string) => tools.find((t) => t.name === name) as HarnessTool;

  it('memory_search ranks matching lines of MEMORY.md and memory/*.md only', async () => {
    const text = outText(await tool('memory_search').execute({ query: 'postgres upgrade' }, ctx(fs)));
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^memory\/2026-11-29\.md#L3 \(score [\d.]+\): - Postgres upgrade planned$/);
    expect(lines[1]).toMatch(/^MEMORY\.md#L3 /);
    expect(text).not.toContain('notes/other.md');
    expect(outText(await tool('memory_search').execute({ query: 'kubernetes' }, ctx(fs)))).toContain(
      'No memory matches',
    );
  });

  it('memory_get returns a line range; memory_save appends to MEMORY.md and the ledger', async () => {
    expect(
      outText(await tool('memory_get').execute({ path: 'MEMORY.md', startLine: 2, endLine: 3 }, ctx(fs))),
    ).toBe('2: - Ana prefers French answers\n3: - Ana uses Postgres 15');
    expect(
      (await tool('memory_get').execute({ path: 'notes/other.md', startLine: 1, endLine: 1 }, ctx(fs)))
        .status,
    ).toBe('error');
    await tool('memory_save').execute({ content: '- Ana moved to Lisbon' }, ctx(fs));
    expect(await fs.readText('MEMORY.md')).toBe(
      '# Prefs\n- Ana prefers French answers\n- Ana uses Postgres 15\n- Ana moved to Lisbon\n',
    );
    expect(await fs.readText('memory/2026-11-30.md')).toContain('- Ana moved to Lisbon');
    expect(tools.map((t) => [t.name, t.idempotent])).toEqual([
      ['memory_search', true],
      ['memory_get', true],
      ['memory_save', false],
    ]);
  });

  it('session_search finds entries in the session logs of an agent', async () => {
    const logFs = await seededWorkspace({
      'agents/agent-1/sessions/sesn_a.log.jsonl': [
        JSON.stringify({
          id: 'e1',
          parentId: null,
          timestamp: 't',
          type: 'message',
          event: {
            id: 'e1',
            type: 'agent.message',
            content: [{ type: 'text', text: 'The invoice total was 4,210 EUR.' }],
          },
        }),
        JSON.stringify({
          id: 'e2',
          parentId: 'e1',
          timestamp: 't',
          type: 'message',
          event: { id: 'e2', type: 'agent.message', content: [{ type: 'text', text: 'Hello there.' }] },
        }),
        '{"torn',
      ].join('\n'),
      'agents/other/sessions/sesn_b.log.jsonl': JSON.stringify({
        id: 'e3',
        type: 'message',
        event: { type: 'agent.message', text: 'invoice from another agent' },
      }),
    });
    const search = createSessionSearchTool(new WorkspaceSessionLogs(logFs));
    expect(search.idempotent).toBe(true);
    const text = outText(await search.execute({ query: 'invoice total' }, ctx(logFs)));
    expect(text).toMatch(
      /^session sesn_a line 1 \[agent\.message\] \(score [\d.]+\): The invoice total was 4,210 EUR\.$/,
    );
    expect(text).not.toContain('another agent');
    expect(outText(await search.execute({ query: 'invoice', agentId: 'other' }, ctx(logFs)))).toContain(
      'sesn_b',
    );
  });
});
