import type { ChatMessage, ContentBlock } from '../model/model-port.js';

export interface RenderTranscriptOptions {
  /** Tool results and long texts are cut to this many chars (head + tail) so a summary prompt stays small. */
  maxBlockChars?: number;
  /** Tool-call arguments are cut to this many chars. */
  maxArgumentChars?: number;
}

/** Keeps the head and the tail of a long text, saying how much was left out. */
export function clipMiddle(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const half = Math.max(1, Math.floor(maxChars / 2));
  return `${text.slice(0, half)}\n...[${text.length - 2 * half} chars omitted]...\n${text.slice(-half)}`;
}

function renderBlocks(blocks: ContentBlock[], maxChars: number): string {
  return blocks
    .map((block) => {
      if (block.type === 'image') return '[image]';
      if (block.type === 'thinking') return '';
      return clipMiddle(block.text, maxChars);
    })
    .filter((text) => text.trim() !== '')
    .join('\n');
}

/**
 * Renders a conversation as plain text for a summarisation or memory-extraction call: one
 * `[ROLE]: ...` entry per message, tool calls and results as short bracketed lines.
 */
export function renderTranscript(
  messages: readonly ChatMessage[],
  options: RenderTranscriptOptions = {},
): string {
  const maxBlock = options.maxBlockChars ?? 2_000;
  const maxArgs = options.maxArgumentChars ?? 500;
  const lines: string[] = [];
  for (const message of messages) {
    if (message.role === 'system') continue;
    if (message.role === 'tool') {
      const status = message.isError ? ' (error)' : '';
      lines.push(`[TOOL_RESULT ${message.toolName}${status}]: ${renderBlocks(message.content, maxBlock)}`);
      continue;
    }
    const text = renderBlocks(message.content, maxBlock);
    const calls =
      message.role === 'assistant'
        ? (message.toolCalls ?? []).map(
            (call) => `[tool_call: ${call.name}(${clipMiddle(JSON.stringify(call.input), maxArgs)})]`,
          )
        : [];
    const body = [text, ...calls].filter((part) => part !== '').join('\n');
    if (body !== '') lines.push(`[${message.role.toUpperCase()}]: ${body}`);
  }
  return lines.join('\n');
}
