import type { WorkspaceFs } from '@agentry/workspace';
import type { ChatMessage, ModelPort } from '../model/model-port.js';
import { completeText } from '../context/model-text.js';
import { clipMiddle, renderTranscript } from '../context/transcript-render.js';
import { readOptionalText } from '../context/workspace-read.js';
import { dailyLedgerPath, MEMORY_FILE, type MemoryClock } from './memory-clock.js';

export const NO_REPLY = 'NO_REPLY';

const MEMORY_FLUSH_SYSTEM_PROMPT = `You are a memory extraction assistant. Analyze the conversation below and extract important facts, decisions, preferences, and contextual information that should be remembered for future conversations.

Output ONLY the extracted memories as a markdown bullet list. Each item should be a concise, self-contained fact. Include dates, names, and specifics when available.

If there is nothing worth remembering, respond with exactly: ${NO_REPLY}

Guidelines:
- Extract user preferences, personal information, project decisions
- Capture important technical decisions and their rationale
- Note any commitments, deadlines, or action items
- Record relationship context (who works on what, team structure)
- Ignore routine greetings, tool invocations, and ephemeral status updates

Write target and append-only rules:
- You are writing to TODAY'S daily memory ledger (memory/YYYY-MM-DD.md), NOT to MEMORY.md. The ledger is append-only: your output is appended after the entries already shown.
- MEMORY.md is the curated long-term memory and is shown ONLY as read-only context. Do NOT restate facts already covered by MEMORY.md or by today's earlier entries; a separate consolidation step periodically merges new daily entries into MEMORY.md.
- Keep each bullet independent and self-contained so entries can be searched individually.`;

export interface FlushMemoryParams {
  fs: WorkspaceFs;
  model: ModelPort;
  /** The messages of the turn just finished (or the part about to be compacted). */
  conversationSlice: readonly ChatMessage[];
  clock: MemoryClock;
  /** Cap on the rendered conversation sent to the extractor (default 120,000 chars). */
  maxTranscriptChars?: number;
  signal?: AbortSignal;
}

export interface FlushMemoryResult {
  /** The ledger appended to; absent when nothing was written. */
  path?: string;
  /** The extracted bullet list; absent on NO_REPLY or an empty conversation. */
  facts?: string;
}

/**
 * After a turn: one extraction call over the conversation slice, its bullet facts appended to today's
 * `memory/YYYY-MM-DD.md`. MEMORY.md and today's ledger are shown so facts are not repeated. A reply of
 * NO_REPLY (or nothing) writes nothing.
 */
export async function flushMemory(params: FlushMemoryParams): Promise<FlushMemoryResult> {
  // Keep the extraction call small whatever the slice: the start and end of a long turn matter most.
  const transcript = clipMiddle(
    renderTranscript(params.conversationSlice),
    params.maxTranscriptChars ?? 120_000,
  );
  if (transcript.trim() === '') return {};
  const now = params.clock.now();
  const path = dailyLedgerPath(now);
  const memory = (await readOptionalText(params.fs, MEMORY_FILE))?.trim() ?? '';
  const today = (await readOptionalText(params.fs, path))?.trim() ?? '';
  const parts: string[] = [];
  if (memory !== '') parts.push(`MEMORY.md (read-only curated long-term memory; do NOT restate):\n${memory}`);
  if (today !== '') parts.push(`Today's daily ledger so far (your output will be appended after):\n${today}`);
  parts.push(
    `Extract NEW memories from this conversation window (skip anything already covered above):\n\n${transcript}`,
  );

  const reply = await completeText(
    params.model,
    {
      messages: [
        { role: 'system', content: MEMORY_FLUSH_SYSTEM_PROMPT },
        { role: 'user', content: [{ type: 'text', text: parts.join('\n\n') }] },
      ],
      temperature: 0,
    },
    params.signal,
  );
  if (reply === '' || reply === NO_REPLY) return {};
  await params.fs.appendText(path, `\n## Memory Flush — ${now.toISOString()}\n${reply}\n`);
  return { path, facts: reply };
}
