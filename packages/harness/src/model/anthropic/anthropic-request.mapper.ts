import type {
  ContentBlockParam,
  ImageBlockParam,
  MessageParam,
  TextBlockParam,
  Tool,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import type { ChatMessage, ContentBlock, ToolDefinition } from '../model-port.js';

export interface AnthropicRequestParts {
  system: TextBlockParam[] | undefined;
  messages: MessageParam[];
}

/**
 * Maps the neutral history to Messages API turns: system messages go to the top-level `system`, tool results
 * become `tool_result` blocks of a user turn, and consecutive same-role turns are merged (parallel tool results
 * must travel in one user turn). With `cache`, the last system block and the last message block are cache
 * breakpoints, so a growing conversation re-reads its prefix from the prompt cache.
 */
export function toAnthropicRequest(history: ChatMessage[], cache: boolean): AnthropicRequestParts {
  const system: TextBlockParam[] = [];
  const messages: Array<{ role: 'user' | 'assistant'; content: ContentBlockParam[] }> = [];
  const append = (role: 'user' | 'assistant', blocks: ContentBlockParam[]): void => {
    if (blocks.length === 0) return;
    const last = messages[messages.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else messages.push({ role, content: blocks });
  };
  for (const message of history) {
    switch (message.role) {
      case 'system':
        if (message.content) system.push({ type: 'text', text: message.content });
        break;
      case 'user':
        append('user', message.content.flatMap(toUserBlock));
        break;
      case 'assistant':
        append('assistant', [
          ...message.content.flatMap(toAssistantBlock),
          ...(message.toolCalls ?? []).map((c): ContentBlockParam => ({
            type: 'tool_use',
            id: c.id,
            name: c.name,
            input: c.input,
          })),
        ]);
        break;
      case 'tool':
        append('user', [toToolResult(message)]);
        break;
    }
  }
  if (cache) {
    const lastSystem = system[system.length - 1];
    if (lastSystem) lastSystem.cache_control = { type: 'ephemeral' };
    const lastBlock = messages[messages.length - 1]?.content.at(-1);
    if (lastBlock && lastBlock.type !== 'thinking' && lastBlock.type !== 'redacted_thinking') {
      (lastBlock as { cache_control?: unknown }).cache_control = { type: 'ephemeral' };
    }
  }
  return { system: system.length > 0 ? system : undefined, messages };
}

export function toAnthropicTools(tools: ToolDefinition[] | undefined): Tool[] | undefined {
  if (!tools || tools.length === 0) return undefined;
  return tools.map((t) => ({
    name: t.name,
    description: t.description,
    input_schema: t.inputSchema as Tool.InputSchema,
  }));
}

function toUserBlock(block: ContentBlock): ContentBlockParam[] {
  if (block.type === 'text') return block.text ? [{ type: 'text', text: block.text }] : [];
  if (block.type === 'image') return [toImage(block)];
  return [];
}

function toAssistantBlock(block: ContentBlock): ContentBlockParam[] {
  if (block.type === 'text') return block.text ? [{ type: 'text', text: block.text }] : [];
  // The API rejects thinking it cannot verify; unsigned thinking (from another provider) is dropped.
  if (block.type === 'thinking')
    return block.signature ? [{ type: 'thinking', thinking: block.text, signature: block.signature }] : [];
  return [];
}

function toToolResult(message: Extract<ChatMessage, { role: 'tool' }>): ToolResultBlockParam {
  const content: Array<TextBlockParam | ImageBlockParam> = [];
  for (const block of message.content) {
    if (block.type === 'text') content.push({ type: 'text', text: block.text });
    if (block.type === 'image') content.push(toImage(block));
  }
  return {
    type: 'tool_result',
    tool_use_id: message.toolCallId,
    content,
    ...(message.isError ? { is_error: true } : {}),
  };
}

function toImage(block: Extract<ContentBlock, { type: 'image' }>): ImageBlockParam {
  return {
    type: 'image',
    source: { type: 'base64', media_type: block.mediaType as 'image/png', data: block.data },
  };
}
