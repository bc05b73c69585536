import { describe, expect, it } from 'vitest';
import type { ChatMessage, ModelRequest } from '../model/model-port.js';
import { compactIfNeeded, emergencyCompact } from './conversation-compactor.js';
import { allFilePaths, seededWorkspace } from './memory-workspace.fixture.js';
import { ScriptedModelFixture } from './scripted-model.fixture.js';
import { estimateConversationTokens } from './token-estimate.js';
import { evictLargeToolResult } from './tool-result-eviction.js';

function summariser(): ScriptedModelFixture {
  return new ScriptedModelFixture((request: ModelRequest) => {
    const last = request.messages.at(-1);
    const text = last && last.role === 'user' && last.content[0]?.type === 'text' ? last.content[0].text : '';
    return `## SESSION INTENT\ntest\n## SUMMARY\n${/Summarise these (\d+)/.exec(text)?.[1] ?? '?'} messages\n## ARTIFACTS\n-\n## NEXT STEPS\n-`;
  });
}

/** Deterministic PRNG so the property test is reproducible. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const text = (s: string) => [{ type: 'text' as const, text: s }];

function randomConversation(rand: () => number, turns: number): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: 'system', content: 'sys' }];
  let callId = 0;
  for (let t = 0; t < turns; t += 1) {
    messages.push({ role: 'user', content: text(`question ${t} ${'q'.repeat(Math.floor(rand() * 400))}`) });
    const steps = Math.floor(rand() * 4);
    for (let s = 0; s < steps; s += 1) {
      const calls = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => ({
        id: `call_${(callId += 1)}`,
        name: 'execute',
        input: { n: callId },
      }));
      messages.push({ role: 'assistant', content: text('working'), toolCalls: calls });
      const pendingLast = t === turns - 1 && s === steps - 1 && rand() < 0.3;
      const results = pendingLast ? calls.slice(1) : [...calls].sort(() => rand() - 0.5);
      for (const call of results) {
        messages.push({
          role: 'tool',
          toolCallId: call.id,
          toolName: call.name,
          content: text('r'.repeat(Math.floor(rand() * 3_000))),
        });
      }
    }
    messages.push({ role: 'assistant', content: text(`answer ${t}`) });
  }
  return messages;
}

/** Every kept tool result follows its call, and every call whose result existed still has it. */
function assertPaired(before: ChatMessage[], after: ChatMessage[]): void {
  const answeredBefore = new Set(
    before.filter((m) => m.role === 'tool').map((m) => (m as { toolCallId: string }).toolCallId),
  );
  const seenCalls = new Set<string>();
  const results = new Set<string>();
  for (const m of after) {
    if (m.role === 'assistant') for (const c of m.toolCalls ?? []) seenCalls.add(c.id);
    if (m.role === 'tool') {
      expect(seenCalls.has(m.toolCallId), `result ${m.toolCallId} without its call`).toBe(true);
      results.add(m.toolCallId);
    }
  }
  for (const id of seenCalls)
    if (answeredBefore.has(id)) expect(results.has(id), `call ${id} lost its result`).toBe(true);
}

describe('compactIfNeeded', () => {
  it('never splits a tool call from its results (300 random conversations, normal and emergency)', async () => {
    const rand = mulberry32(42);
    let compacted = 0;
    for (let i = 0; i < 300; i += 1) {
      const conversation = randomConversation(rand, 1 + Math.floor(rand() * 25));
      const options = {
        model: summariser(),
        contextWindow: 4_000 + Math.floor(rand() * 30_000),
        reserveTokens: 2_000,
        maxMessages: 5 + Math.floor(rand() * 60),
        keepRecent: 1 + Math.floor(rand() * 10),
      };
      const normal = await compactIfNeeded(conversation, options);
      assertPaired(conversation, normal.conversation);
      if (normal.summary) {
        compacted += 1;
        expect(normal.conversation.length).toBeLessThan(conversation.length);
        expect(normal.conversation[0]).toEqual({ role: 'system', content: 'sys' });
        expect(normal.conversation[1]?.role).toBe('user');
        expect(normal.conversation[2]?.role).not.toBe('tool');
      }
      const emergency = await emergencyCompact(conversation, options);
      assertPaired(conversation, emergency.conversation);
    }
    expect(compacted).toBeGreaterThan(100);
  });

  it('triggers at contextWindow − reserve tokens and not below', async () => {
    const model = summariser();
    const conversation: ChatMessage[] = [];
    for (let i = 0; i < 8; i += 1) {
      conversation.push(
        { role: 'user', content: text(`u${i} ${'x'.repeat(4_000)}`) },
        { role: 'assistant', content: text(`a${i}`) },
      );
    }
    const tokens = estimateConversationTokens(conversation);
    const below = await compactIfNeeded(conversation, {
      model,
      contextWindow: tokens + 2_001,
      reserveTokens: 2_000,
    });
    expect(below.summary).toBeUndefined();
    expect(below.conversation).toBe(conversation);
    expect(model.requests).toHaveLength(0);

    const at = await compactIfNeeded(conversation, {
      model,
      contextWindow: tokens + 2_000,
      reserveTokens: 2_000,
    });
    expect(model.requests).toHaveLength(1);
    expect(at.compactedCount).toBeGreaterThan(0);
    expect(at.summary).toContain(`${at.compactedCount} messages`);
    const first = at.conversation[0];
    expect(first?.role === 'user' && first.content[0]?.type === 'text' && first.content[0].text).toContain(
      '<conversation_summary>',
    );
    expect(at.conversation.at(-1)).toBe(conversation.at(-1));
    expect(estimateConversationTokens(at.conversation)).toBeLessThan(tokens);
  });

  it('triggers over maxMessages even when tokens are low, keeping keepRecent messages', async () => {
    const model = summariser();
    const conversation: ChatMessage[] = Array.from({ length: 51 }, (_, i) =>
      i % 2 === 0 ? { role: 'user', content: text(`u${i}`) } : { role: 'assistant', content: text(`a${i}`) },
    );
    expect(
      (await compactIfNeeded(conversation.slice(0, 50), { model, contextWindow: 200_000 })).summary,
    ).toBeUndefined();
    const result = await compactIfNeeded(conversation, { model, contextWindow: 200_000, keepRecent: 10 });
    expect(result.compactedCount).toBe(41);
    expect(result.conversation).toHaveLength(11);
    expect(result.conversation.slice(1)).toEqual(conversation.slice(41));
  });

  it('keeps a long conversation with large tool outputs under the window (400 turns)', async () => {
    const fs = await seededWorkspace();
    const model = summariser();
    const window = 32_000;
    let conversation: ChatMessage[] = [{ role: 'system', content: 'You are a test agent.' }];
    let peak = 0;
    let compactions = 0;
    for (let turn = 0; turn < 400; turn += 1) {
      conversation.push({ role: 'user', content: text(`Run step ${turn}`) });
      conversation.push({
        role: 'assistant',
        content: [],
        toolCalls: [{ id: `c${turn}`, name: 'execute', input: { command: `step ${turn}` } }],
      });
      const raw = `${turn}:`.padEnd(turn % 3 === 0 ? 120_000 : 9_000, 'z');
      const shown = await evictLargeToolResult(fs, { toolUseId: `c${turn}`, toolName: 'execute', text: raw });
      conversation.push({ role: 'tool', toolCallId: `c${turn}`, toolName: 'execute', content: text(shown) });
      conversation.push({ role: 'assistant', content: text(`done ${turn}`) });
      const result = await compactIfNeeded(conversation, {
        model,
        contextWindow: window,
        reserveTokens: 8_000,
      });
      if (result.summary) compactions += 1;
      conversation = result.conversation;
      peak = Math.max(peak, estimateConversationTokens(conversation));
    }
    expect(compactions).toBeGreaterThan(10);
    expect(peak).toBeLessThan(window - 8_000);
    expect((await allFilePaths(fs)).length).toBe(134);
  });

  it('emergency compaction keeps only a short, clipped tail', async () => {
    const conversation: ChatMessage[] = [];
    for (let i = 0; i < 10; i += 1) {
      conversation.push({ role: 'user', content: text(`u${i}`) });
      conversation.push({
        role: 'assistant',
        content: [],
        toolCalls: [{ id: `t${i}`, name: 'execute', input: {} }],
      });
      conversation.push({
        role: 'tool',
        toolCallId: `t${i}`,
        toolName: 'execute',
        content: text('o'.repeat(50_000)),
      });
    }
    const result = await emergencyCompact(conversation, { model: summariser(), contextWindow: 100_000 });
    expect(result.summary).toBeDefined();
    expect(result.conversation.length).toBeLessThanOrEqual(5);
    expect(estimateConversationTokens(result.conversation)).toBeLessThan(3_000);
    assertPaired(conversation, result.conversation);
  });
});
