import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ContentBlock } from '../model/model-port.js';
import type { ToolOutcome } from '../tools/tool.js';

type McpContent = CallToolResult['content'][number];

/** Maps an MCP tool result to a ToolOutcome; content the model port cannot carry becomes a short text note. */
export function toToolOutcome(result: CallToolResult | { toolResult: unknown }): ToolOutcome {
  if (!('content' in result)) {
    // Results from servers on the 2024-10-07 protocol.
    return { status: 'ok', content: [{ type: 'text', text: JSON.stringify(result.toolResult) }] };
  }
  const content: ContentBlock[] = (result.content ?? []).map(toBlock);
  if (content.length === 0 && result.structuredContent !== undefined) {
    content.push({ type: 'text', text: JSON.stringify(result.structuredContent) });
  }
  if (result.isError === true) {
    const first = content.find((b): b is Extract<ContentBlock, { type: 'text' }> => b.type === 'text');
    return { status: 'error', content, ...(first ? { reason: first.text.slice(0, 500) } : {}) };
  }
  return { status: 'ok', content };
}

function toBlock(item: McpContent): ContentBlock {
  switch (item.type) {
    case 'text':
      return { type: 'text', text: item.text };
    case 'image':
      return { type: 'image', mediaType: item.mimeType, data: item.data };
    case 'audio':
      return {
        type: 'text',
        text: `[audio ${item.mimeType}, ${approximateBytes(item.data)} bytes, not shown]`,
      };
    case 'resource': {
      const resource = item.resource;
      if ('text' in resource && typeof resource.text === 'string')
        return { type: 'text', text: resource.text };
      const blob = 'blob' in resource && typeof resource.blob === 'string' ? resource.blob : '';
      return {
        type: 'text',
        text: `[resource ${resource.uri} (${resource.mimeType ?? 'binary'}), ${approximateBytes(blob)} bytes]`,
      };
    }
    case 'resource_link':
      return {
        type: 'text',
        text: `[resource link: ${item.name} ${item.uri}${item.description ? ` - ${item.description}` : ''}]`,
      };
    default:
      return { type: 'text', text: JSON.stringify(item) };
  }
}

function approximateBytes(base64: string): number {
  return Math.floor((base64.length * 3) / 4);
}
