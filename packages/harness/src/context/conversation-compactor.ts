import { AppError } from '@agentry/contracts';
import type { ChatMessage, ContentBlock, ModelPort } from '../model/model-port.js';
import { COMPACTION_SYSTEM_PROMPT, summaryMessageText, summaryRequestText } from './compaction-prompt.js';
import { nearestSafeCut } from './conversation-boundaries.js';
import { completeText } from './model-text.js';
import {
  estimateConversationTokens,
  estimateMessageTokens,
  estimateTokens,
  type TokenCounter,
} from './token-estimate.js';
import { clipMiddle, renderTranscript } from './transcript-render.js';

/** Used when a model does not report its context window. */
const FALLBACK_CONTEXT_WINDOW = 180_000;

export interface CompactionOptions {
  model: ModelPort;
  /** Defaults to model.contextWindow. */
  contextWindow?: number;
  /** Compaction triggers at contextWindow − reserveTokens (default 20,000). */
  reserveTokens?: number;
  /** ...or when the conversation has more non-system messages than this (default 50). */
  maxMessages?: number;
  /** Most messages kept verbatim after a compaction (default 20, at most half of maxMessages). */
  keepRecent?: number;
  /** Token cap of the kept tail (default min(8,000, max(2,000, 25% of the usable window))). */
  keepRecentTokens?: number;
  /** Cap on the summary the model writes (default 4,000 tokens). */
  summaryMaxTokens?: number;
  /** A line appended to the summary, e.g. where the full history can be searched. */
  archiveHint?: string;
  tokenCounter?: TokenCounter;
  signal?: AbortSignal;
}

export interface CompactionResult {
  conversation: ChatMessage[];
  /** Present when a summary was made: persist it (agent.thread_context_compacted). */
  summary?: string;
  /** How many messages the summary replaced. */
  compactedCount?: number;
}

interface Plan {
  keepRecent: number;
  keepTokens: number;
  /** Clip kept text blocks above this many chars (emergency only). */
  clipKeptChars?: number;
}

function leadingSystemCount(conversation: readonly ChatMessage[]): number {
  let count = 0;
  while (conversation[count]?.role === 'system') count += 1;
  return count;
}

function windowOf(options: CompactionOptions): number {
  return (
    options.contextWindow ??
    (options.model.contextWindow > 0 ? options.model.contextWindow : FALLBACK_CONTEXT_WINDOW)
  );
}

function clipBlocks(message: ChatMessage, maxChars: number): ChatMessage {
  if (message.role === 'system') return message;
  const content: ContentBlock[] = message.content.map((block) =>
    block.type === 'text' && block.text.length > maxChars
      ? { type: 'text', text: clipMiddle(block.text, maxChars) }
      : block,
  );
  return { ...message, content };
}

async function summarise(
  messages: ChatMessage[],
  options: CompactionOptions,
  inputBudget: number,
): Promise<string> {
  const counter = options.tokenCounter ?? estimateTokens;
  let transcript = renderTranscript(messages);
  const tokens = counter(transcript);
  // One call must fit the window: drop the middle of an over-long transcript, keep its start and end.
  if (tokens > inputBudget)
    transcript = clipMiddle(transcript, Math.floor((transcript.length * inputBudget) / tokens));
  const summary = await completeText(
    options.model,
    {
      messages: [
        { role: 'system', content: COMPACTION_SYSTEM_PROMPT },
        { role: 'user', content: [{ type: 'text', text: summaryRequestText(transcript, messages.length) }] },
      ],
      maxTokens: options.summaryMaxTokens ?? 4_000,
      temperature: 0,
    },
    options.signal,
  );
  if (summary === '')
    throw new AppError('MODEL_REQUEST_FAILED', 'The model returned an empty compaction summary', {
      retryable: true,
    });
  return summary;
}

async function compactWith(
  conversation: ChatMessage[],
  options: CompactionOptions,
  plan: Plan,
): Promise<CompactionResult> {
  const counter = options.tokenCounter ?? estimateTokens;
  const start = leadingSystemCount(conversation);
  let kept = 0;
  let keptTokens = 0;
  for (let i = conversation.length - 1; i >= start && kept < plan.keepRecent; i -= 1) {
    const tokens = estimateMessageTokens(conversation[i] as ChatMessage, counter);
    if (kept > 0 && keptTokens + tokens > plan.keepTokens) break;
    kept += 1;
    keptTokens += tokens;
  }
  const cut = nearestSafeCut(conversation, conversation.length - kept, start);
  const clip = (messages: ChatMessage[]): ChatMessage[] =>
    plan.clipKeptChars === undefined
      ? messages
      : messages.map((m) => clipBlocks(m, plan.clipKeptChars as number));
  if (cut === null || cut <= start) {
    const clipped = clip(conversation);
    return { conversation: clipped };
  }
  const older = conversation.slice(start, cut);
  const summaryBudget = options.summaryMaxTokens ?? 4_000;
  const inputBudget = Math.max(
    1_000,
    windowOf(options) - summaryBudget - counter(COMPACTION_SYSTEM_PROMPT) - 1_000,
  );
  const summary = await summarise(older, options, inputBudget);
  const summaryMessage: ChatMessage = {
    role: 'user',
    content: [{ type: 'text', text: summaryMessageText(summary, older.length, options.archiveHint) }],
  };
  return {
    conversation: [...conversation.slice(0, start), summaryMessage, ...clip(conversation.slice(cut))],
    summary,
    compactedCount: older.length,
  };
}

/** Whether the conversation is past either threshold (tokens at window − reserve, or message count). */
function needsCompaction(conversation: readonly ChatMessage[], options: CompactionOptions): boolean {
  const counter = options.tokenCounter ?? estimateTokens;
  const trigger = windowOf(options) - (options.reserveTokens ?? 20_000);
  const messages = conversation.length - leadingSystemCount(conversation);
  return (
    messages > (options.maxMessages ?? 50) || estimateConversationTokens(conversation, counter) >= trigger
  );
}

/**
 * Summarises the older part of the conversation with one model call once it crosses a threshold, and
 * keeps the recent messages verbatim. The cut never separates an assistant tool call from its results.
 * The returned conversation starts (after any system messages) with the summary as a user message.
 */
export async function compactIfNeeded(
  conversation: ChatMessage[],
  options: CompactionOptions,
): Promise<CompactionResult> {
  if (!needsCompaction(conversation, options)) return { conversation };
  const usable = Math.max(1, windowOf(options) - (options.reserveTokens ?? 20_000));
  const keepRecent = Math.max(
    1,
    Math.min(options.keepRecent ?? 20, Math.floor((options.maxMessages ?? 50) / 2)),
  );
  const keepTokens = options.keepRecentTokens ?? Math.min(8_000, Math.max(2_000, Math.floor(usable * 0.25)));
  return compactWith(conversation, options, { keepRecent, keepTokens });
}

/**
 * For a CONTEXT_OVERFLOW from the model: always compacts, keeps only the last few messages, and clips
 * long text blocks in what is kept (still pair-safe: messages are shortened, never dropped or split).
 */
export async function emergencyCompact(
  conversation: ChatMessage[],
  options: CompactionOptions,
): Promise<CompactionResult> {
  const usable = Math.max(1, windowOf(options) - (options.reserveTokens ?? 20_000));
  return compactWith(conversation, options, {
    keepRecent: Math.max(1, Math.min(options.keepRecent ?? 4, 4)),
    keepTokens: Math.min(2_000, Math.max(500, Math.floor(usable * 0.1))),
    clipKeptChars: 4_000,
  });
}
