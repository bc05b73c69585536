import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { ContentBlock, ModelStreamEvent, StopReason, ToolCall, Usage } from '../model-port.js';
import { parseToolCallJson } from '../tool-call-json.js';

type Block =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; text: string; signature: string }
  | { kind: 'tool'; id: string; name: string; json: string }
  | { kind: 'other' };

/** Folds Messages API stream events into port events; blocks are keyed by their `index`. */
export class AnthropicStreamAccumulator {
  private readonly blocks = new Map<number, Block>();
  private stopReason: string | null = null;
  private usage: Usage = { inputTokens: 0, outputTokens: 0 };

  constructor(private readonly modelId: string) {}

  push(event: RawMessageStreamEvent): ModelStreamEvent[] {
    switch (event.type) {
      case 'message_start': {
        const u = event.message.usage;
        this.usage = {
          inputTokens: u.input_tokens,
          outputTokens: u.output_tokens,
          ...(u.cache_read_input_tokens ? { cacheReadInputTokens: u.cache_read_input_tokens } : {}),
          ...(u.cache_creation_input_tokens
            ? { cacheCreationInputTokens: u.cache_creation_input_tokens }
            : {}),
        };
        return [];
      }
      case 'content_block_start': {
        const block = event.content_block;
        if (block.type === 'text') {
          this.blocks.set(event.index, { kind: 'text', text: block.text });
          return block.text ? [{ type: 'text_delta', text: block.text }] : [];
        }
        if (block.type === 'thinking') {
          this.blocks.set(event.index, {
            kind: 'thinking',
            text: block.thinking,
            signature: block.signature,
          });
          return block.thinking ? [{ type: 'thinking_delta', text: block.thinking }] : [];
        }
        if (block.type === 'tool_use') {
          this.blocks.set(event.index, { kind: 'tool', id: block.id, name: block.name, json: '' });
          return [{ type: 'tool_call_start', id: block.id, name: block.name }];
        }
        this.blocks.set(event.index, { kind: 'other' });
        return [];
      }
      case 'content_block_delta':
        return this.pushDelta(event.index, event.delta);
      case 'message_delta': {
        this.stopReason = event.delta.stop_reason ?? this.stopReason;
        const u = event.usage;
        this.usage.outputTokens = u.output_tokens;
        // Newer API versions repeat the final input counts here; prefer them when present.
        if (typeof u.input_tokens === 'number') this.usage.inputTokens = u.input_tokens;
        if (u.cache_read_input_tokens) this.usage.cacheReadInputTokens = u.cache_read_input_tokens;
        if (u.cache_creation_input_tokens)
          this.usage.cacheCreationInputTokens = u.cache_creation_input_tokens;
        return [];
      }
      default:
        return [];
    }
  }

  finish(): Extract<ModelStreamEvent, { type: 'done' }> {
    const content: ContentBlock[] = [];
    const toolCalls: ToolCall[] = [];
    for (const [, block] of [...this.blocks.entries()].sort(([a], [b]) => a - b)) {
      if (block.kind === 'text' && block.text) content.push({ type: 'text', text: block.text });
      if (block.kind === 'thinking')
        content.push({
          type: 'thinking',
          text: block.text,
          ...(block.signature ? { signature: block.signature } : {}),
        });
      if (block.kind === 'tool')
        toolCalls.push({
          id: block.id,
          name: block.name,
          input: parseToolCallJson(this.modelId, block, 'input', block.json),
        });
    }
    return {
      type: 'done',
      message: { role: 'assistant', content, ...(toolCalls.length > 0 ? { toolCalls } : {}) },
      stopReason: toStopReason(this.stopReason),
      usage: this.usage,
    };
  }

  private pushDelta(
    index: number,
    delta: Extract<RawMessageStreamEvent, { type: 'content_block_delta' }>['delta'],
  ): ModelStreamEvent[] {
    const block = this.blocks.get(index);
    if (!block) return [];
    if (delta.type === 'text_delta' && block.kind === 'text') {
      block.text += delta.text;
      return [{ type: 'text_delta', text: delta.text }];
    }
    if (delta.type === 'thinking_delta' && block.kind === 'thinking') {
      block.text += delta.thinking;
      return [{ type: 'thinking_delta', text: delta.thinking }];
    }
    if (delta.type === 'signature_delta' && block.kind === 'thinking') {
      block.signature += delta.signature;
      return [];
    }
    if (delta.type === 'input_json_delta' && block.kind === 'tool') {
      block.json += delta.partial_json;
      return delta.partial_json
        ? [{ type: 'tool_call_delta', id: block.id, argumentsDelta: delta.partial_json }]
        : [];
    }
    return [];
  }
}

function toStopReason(reason: string | null): StopReason {
  switch (reason) {
    case 'tool_use':
      return 'tool_use';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'max_tokens';
    case 'stop_sequence':
      return 'stop_sequence';
    case 'refusal':
      return 'refusal';
    default:
      return 'end_turn';
  }
}
