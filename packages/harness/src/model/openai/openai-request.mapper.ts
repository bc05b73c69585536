import type {
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { ChatMessage, ContentBlock, ToolDefinition } from '../model-port.js';

/**
 * Maps the neutral history to chat-completions messages. Thinking blocks are dropped (the API has no place for
 * them); tool messages carry text only, so images in tool results become a short placeholder.
 */
export function toOpenAiMessages(messages: ChatMessage[]): ChatCompletionMessageParam[] {
  return messages.map((message): ChatCompletionMessageParam => {
    switch (message.role) {
      case 'system':
        return { role: 'system', content: message.content };
      case 'user':
        return { role: 'user', content: toUserContent(message.content) };
      case 'assistant': {
        const text = joinText(message.content);
        const calls = message.toolCalls ?? [];
        return {
          role: 'assistant',
          content: text.length > 0 ? text : null,
          ...(calls.length > 0
            ? {
                tool_calls: calls.map((call) => ({
                  id: call.id,
                  type: 'function' as const,
                  function: { name: call.name, arguments: JSON.stringify(call.input) },
                })),
              }
            : {}),
        };
      }
      case 'tool': {
        const text = message.content.map(blockAsText).join('\n');
        // Chat completions has no error flag on tool results; say it in the text.
        return {
          role: 'tool',
          tool_call_id: message.toolCallId,
          content: message.isError ? `Error: ${text}` : text,
        };
      }
    }
  });
}

export function toOpenAiTools(tools: ToolDefinition[] | undefined): ChatCompletionTool[] | undefined {
  if (!tools || tools.length === 0) return undefined;
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  }));
}

function toUserContent(blocks: ContentBlock[]): string | ChatCompletionContentPart[] {
  // Plain strings are the most widely supported shape (older vLLM/Ollama builds reject part arrays).
  if (blocks.every((b) => b.type !== 'image')) return joinText(blocks);
  const parts: ChatCompletionContentPart[] = [];
  for (const block of blocks) {
    if (block.type === 'text') parts.push({ type: 'text', text: block.text });
    if (block.type === 'image')
      parts.push({ type: 'image_url', image_url: { url: `data:${block.mediaType};base64,${block.data}` } });
  }
  return parts;
}

function joinText(blocks: ContentBlock[]): string {
  return blocks
    .filter((b): b is Extract<ContentBlock, { type: 'text' }> => b.type === 'text')
    .map((b) => b.text)
    .join('');
}

function blockAsText(block: ContentBlock): string {
  if (block.type === 'text') return block.text;
  if (block.type === 'image') return `[image ${block.mediaType} omitted]`;
  return '';
}
