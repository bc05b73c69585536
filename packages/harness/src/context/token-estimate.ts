import type { ChatMessage, ContentBlock } from '../model/model-port.js';

/** Counts tokens in a piece of text. The default estimate is ceil(chars / 4). */
export type TokenCounter = (text: string) => number;

export const estimateTokens: TokenCounter = (text) => Math.ceil(text.length / 4);

/** Per-message framing the providers add (role markers, ids); small but it adds up over hundreds of turns. */
const MESSAGE_OVERHEAD_TOKENS = 4;

function blockText(block: ContentBlock): string {
  if (block.type === 'image') return ''; // images are billed separately; a fixed cost below
  return block.text;
}

/** Token estimate of one conversation message, including tool-call arguments. */
export function estimateMessageTokens(message: ChatMessage, counter: TokenCounter = estimateTokens): number {
  let tokens = MESSAGE_OVERHEAD_TOKENS;
  if (message.role === 'system') return tokens + counter(message.content);
  for (const block of message.content) {
    tokens += block.type === 'image' ? 1_000 : counter(blockText(block));
  }
  if (message.role === 'assistant') {
    for (const call of message.toolCalls ?? [])
      tokens += counter(call.name) + counter(JSON.stringify(call.input));
  }
  return tokens;
}

export function estimateConversationTokens(
  messages: readonly ChatMessage[],
  counter: TokenCounter = estimateTokens,
): number {
  let total = 0;
  for (const message of messages) total += estimateMessageTokens(message, counter);
  return total;
}
