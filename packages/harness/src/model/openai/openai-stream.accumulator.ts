import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ContentBlock, ModelStreamEvent, StopReason, ToolCall, Usage } from '../model-port.js';
import { parseToolCallJson } from '../tool-call-json.js';

interface PendingCall {
  id: string;
  name: string;
  arguments: string;
  started: boolean;
}

/** Folds chat-completion chunks into port events; tool calls are keyed by their `index` (parallel calls interleave). */
export class OpenAiStreamAccumulator {
  private text = '';
  private thinking = '';
  private readonly calls = new Map<number, PendingCall>();
  private finishReason: string | null = null;
  private usage: Usage = { inputTokens: 0, outputTokens: 0 };

  constructor(private readonly modelId: string) {}

  push(chunk: ChatCompletionChunk): ModelStreamEvent[] {
    const events: ModelStreamEvent[] = [];
    if (chunk.usage) this.usage = toUsage(chunk.usage);
    for (const choice of chunk.choices ?? []) {
      if (choice.index !== 0) continue;
      const delta = choice.delta ?? {};
      // DashScope, vLLM and DeepSeek stream reasoning in this non-standard field.
      const reasoning = (delta as { reasoning_content?: unknown }).reasoning_content;
      if (typeof reasoning === 'string' && reasoning.length > 0) {
        this.thinking += reasoning;
        events.push({ type: 'thinking_delta', text: reasoning });
      }
      if (typeof delta.content === 'string' && delta.content.length > 0) {
        this.text += delta.content;
        events.push({ type: 'text_delta', text: delta.content });
      }
      for (const part of delta.tool_calls ?? []) events.push(...this.pushToolCall(part));
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
    return events;
  }

  finish(): Extract<ModelStreamEvent, { type: 'done' }> {
    const content: ContentBlock[] = [];
    if (this.thinking) content.push({ type: 'thinking', text: this.thinking });
    if (this.text) content.push({ type: 'text', text: this.text });
    const toolCalls: ToolCall[] = [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, call]) => ({
        id: call.id,
        name: call.name,
        input: parseToolCallJson(this.modelId, call, 'arguments', call.arguments),
      }));
    return {
      type: 'done',
      message: { role: 'assistant', content, ...(toolCalls.length > 0 ? { toolCalls } : {}) },
      stopReason: toStopReason(this.finishReason, toolCalls.length > 0),
      usage: this.usage,
    };
  }

  private pushToolCall(part: ChatCompletionChunk.Choice.Delta.ToolCall): ModelStreamEvent[] {
    const events: ModelStreamEvent[] = [];
    let call = this.calls.get(part.index);
    if (!call) {
      call = { id: '', name: '', arguments: '', started: false };
      this.calls.set(part.index, call);
    }
    if (part.id) call.id = part.id;
    if (part.function?.name) call.name += part.function.name;
    if (!call.started && call.name) {
      // Some servers omit ids; the loop still needs one to pair the result.
      if (!call.id) call.id = `call_${part.index}_${Date.now().toString(36)}`;
      call.started = true;
      events.push({ type: 'tool_call_start', id: call.id, name: call.name });
      if (call.arguments)
        events.push({ type: 'tool_call_delta', id: call.id, argumentsDelta: call.arguments });
    }
    const args = part.function?.arguments;
    if (args) {
      call.arguments += args;
      if (call.started) events.push({ type: 'tool_call_delta', id: call.id, argumentsDelta: args });
    }
    return events;
  }
}

/** Chat completions counts cached tokens inside prompt_tokens; the port reports them apart, as Anthropic does. */
function toUsage(usage: NonNullable<ChatCompletionChunk['usage']>): Usage {
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    inputTokens: Math.max(0, usage.prompt_tokens - cached),
    outputTokens: usage.completion_tokens,
    ...(cached > 0 ? { cacheReadInputTokens: cached } : {}),
  };
}

function toStopReason(reason: string | null, hasToolCalls: boolean): StopReason {
  // Some compatible servers report "stop" even when they emitted tool calls.
  if (hasToolCalls) return 'tool_use';
  switch (reason) {
    case 'length':
      return 'max_tokens';
    case 'content_filter':
      return 'refusal';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    default:
      return 'end_turn';
  }
}
