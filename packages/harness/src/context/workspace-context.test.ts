import { describe, expect, it } from 'vitest';
import { seededWorkspace } from './memory-workspace.fixture.js';
import { estimateTokens } from './token-estimate.js';
import { buildWorkspaceContext } from './workspace-context.js';

describe('buildWorkspaceContext', () => {
  it('injects AGENTS.md, MEMORY.md, KNOWLEDGE.md with the knowledge file list, and additional files', async () => {
    const fs = await seededWorkspace({
      'AGENTS.md': '# Helper\nAlways answer in French.',
      'MEMORY.md': '- The user is called Ana.',
      'knowledge/KNOWLEDGE.md': 'Billing overview.',
      'knowledge/api/invoices.md': 'details',
      'knowledge/terms.md': 'terms',
      'SOUL.md': 'Be kind.',
    });
    const text = await buildWorkspaceContext(fs, { additionalFiles: ['SOUL.md', 'MISSING.md'] });
    expect(text.startsWith('<loaded_context>')).toBe(true);
    expect(text).toContain('<agents_context>\n# Helper\nAlways answer in French.\n</agents_context>');
    expect(text).toContain('<memory_context>\n- The user is called Ana.\n</memory_context>');
    expect(text).toContain(
      'Billing overview.\n\nKnowledge files:\n- knowledge/api/invoices.md\n- knowledge/terms.md',
    );
    expect(text).not.toContain('- knowledge/KNOWLEDGE.md');
    expect(text).toContain('<soul_md>\nBe kind.\n</soul_md>');
    expect(text).not.toContain('missing_md');
    expect(text).not.toContain('truncated');
  });

  it('cuts MEMORY.md first to stay under the budget and says how to read the rest', async () => {
    const memory = Array.from({ length: 2_000 }, (_, i) => `- fact number ${i}`).join('\n');
    const fs = await seededWorkspace({ 'AGENTS.md': 'Persona.', 'MEMORY.md': memory });
    const text = await buildWorkspaceContext(fs, { budgetTokens: 1_000 });
    expect(estimateTokens(text)).toBeLessThanOrEqual(1_000);
    expect(text).toContain('Persona.');
    expect(text).toContain('- fact number 0\n');
    expect(text).not.toContain('- fact number 1999');
    expect(text).toMatch(
      /\[\.\.\. truncated: MEMORY\.md is about \d+ tokens, over the workspace context budget of 1000 tokens\. Use memory_search and memory_get/,
    );
  });

  it('honours a custom token counter and cuts AGENTS.md only when nothing else is left', async () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
    const fs = await seededWorkspace({ 'AGENTS.md': words(500), 'MEMORY.md': words(50) });
    const wordCounter = (t: string) => t.split(/\s+/).filter(Boolean).length;
    const text = await buildWorkspaceContext(fs, { budgetTokens: 200, tokenCounter: wordCounter });
    expect(wordCounter(text)).toBeLessThanOrEqual(200);
    expect(text).toContain('truncated: AGENTS.md');
    expect(text).not.toContain('<memory_context>');
  });

  it('returns nothing when disabled or when the workspace has no context files', async () => {
    const fs = await seededWorkspace({ 'AGENTS.md': 'x' });
    expect(await buildWorkspaceContext(fs, { disable: true })).toBe('');
    const withMemory = await seededWorkspace({ 'AGENTS.md': 'x', 'MEMORY.md': '- m' });
    expect(await buildWorkspaceContext(withMemory, { memoryTools: false, memoryHooks: false })).not.toContain(
      '<memory_context>',
    );
    expect(await buildWorkspaceContext(withMemory, { memoryTools: false })).toContain(
      '<memory_context>\n- m\n</memory_context>',
    );
    expect(await buildWorkspaceContext(await seededWorkspace())).toBe('');
  });
});
