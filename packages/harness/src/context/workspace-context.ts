import type { WorkspaceFs } from '@agentry/workspace';
import { estimateTokens, type TokenCounter } from './token-estimate.js';
import { listFilePaths, readOptionalText } from './workspace-read.js';

const DEFAULT_CONTEXT_BUDGET_TOKENS = 8_000;

export interface WorkspaceContextOptions {
  /** Cap on the whole injected block (default 8,000 tokens, the seed's DEFAULT_MAX_CONTEXT_TOKENS). */
  budgetTokens?: number;
  /** Extra workspace files to inject (e.g. "SOUL.md"), each in its own tag. */
  additionalFiles?: string[];
  /** disableWorkspaceContext(): inject nothing. */
  disable?: boolean;
  /** Whether memory_search / memory_get exist, which changes what the truncation notice recommends. */
  memoryTools?: boolean;
  /** Whether memory flush/consolidation run; with neither tools nor hooks, MEMORY.md is not injected. */
  memoryHooks?: boolean;
  tokenCounter?: TokenCounter;
}

interface Section {
  tag: string;
  source: string;
  text: string;
  hint: string;
}

const GUIDANCE = [
  'The blocks below are loaded from the workspace on every call; edits to these files take effect on the next call.',
  'AGENTS.md defines persona and local conventions: honour them when consistent with safety and policy.',
  'knowledge/ holds reference documents: only KNOWLEDGE.md and the file list are shown; read the others on demand with read_file, grep_files or glob_files.',
].join('\n');

function tagFor(path: string): string {
  return path.replace(/[/.\s-]/g, '_').toLowerCase();
}

/** Cuts `text` so that text + notice costs at most `tokens`; '' when not even the notice fits. */
function truncateTo(text: string, tokens: number, notice: string, counter: TokenCounter): string {
  if (counter(notice) > tokens) return '';
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (counter(text.slice(0, mid) + notice) <= tokens) low = mid;
    else high = mid - 1;
  }
  return text.slice(0, low) + notice;
}

async function knowledgeBlock(fs: WorkspaceFs): Promise<string> {
  const overview = (await readOptionalText(fs, 'knowledge/KNOWLEDGE.md'))?.trim() ?? '';
  const others = (await listFilePaths(fs, 'knowledge')).filter((path) => path !== 'knowledge/KNOWLEDGE.md');
  const parts: string[] = [];
  if (overview !== '') parts.push(overview);
  if (others.length > 0) parts.push(`Knowledge files:\n${others.map((path) => `- ${path}`).join('\n')}`);
  return parts.join('\n\n');
}

/**
 * Builds the `<loaded_context>` block for the system prompt: AGENTS.md, knowledge/KNOWLEDGE.md plus the
 * list of other knowledge files, additional context files, and MEMORY.md. The whole block stays within
 * `budgetTokens`; sections are cut lowest priority first (MEMORY.md, then additional files, then
 * knowledge, then AGENTS.md), and a cut section ends with a notice saying how to read the rest.
 */
export async function buildWorkspaceContext(
  fs: WorkspaceFs,
  options: WorkspaceContextOptions = {},
): Promise<string> {
  if (options.disable) return '';
  const budget = options.budgetTokens ?? DEFAULT_CONTEXT_BUDGET_TOKENS;
  const counter = options.tokenCounter ?? estimateTokens;
  const memoryHint =
    options.memoryTools === false
      ? 'Read MEMORY.md with read_file for the rest.'
      : 'Use memory_search and memory_get to read the rest.';

  const sections: Section[] = [];
  const push = (tag: string, source: string, text: string | null, hint: string): void => {
    const trimmed = text?.trim() ?? '';
    if (trimmed !== '') sections.push({ tag, source, text: trimmed, hint });
  };
  push(
    'agents_context',
    'AGENTS.md',
    await readOptionalText(fs, 'AGENTS.md'),
    'Use read_file on AGENTS.md for the rest.',
  );
  push(
    'domain_knowledge_context',
    'knowledge/',
    await knowledgeBlock(fs),
    'Use list_files / read_file on knowledge/ for the rest.',
  );
  for (const path of options.additionalFiles ?? []) {
    push(tagFor(path), path, await readOptionalText(fs, path), `Use read_file on ${path} for the rest.`);
  }
  if (options.memoryTools !== false || options.memoryHooks !== false) {
    push('memory_context', 'MEMORY.md', await readOptionalText(fs, 'MEMORY.md'), memoryHint);
  }
  if (sections.length === 0) return '';

  const open = `<loaded_context>\n${GUIDANCE}\n`;
  const close = '</loaded_context>';
  let remaining = budget - counter(open) - counter(close);
  if (remaining <= 0) return '';
  const rendered: string[] = [];
  for (const section of sections) {
    const wrapperCost = counter(`<${section.tag}>\n`) + counter(`\n</${section.tag}>\n`);
    const available = remaining - wrapperCost;
    if (available <= 0) continue;
    let body = section.text;
    const fullCost = counter(body);
    if (fullCost > available) {
      const notice = `\n[... truncated: ${section.source} is about ${fullCost} tokens, over the workspace context budget of ${budget} tokens. ${section.hint}]`;
      body = truncateTo(body, available, notice, counter);
      if (body === '') continue;
    }
    remaining -= wrapperCost + counter(body);
    rendered.push(`<${section.tag}>\n${body}\n</${section.tag}>\n`);
  }
  if (rendered.length === 0) return '';
  return `${open}${rendered.join('')}${close}`;
}
