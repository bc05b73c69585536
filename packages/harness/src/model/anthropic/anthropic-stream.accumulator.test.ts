import { describe, expect, it } from 'vitest';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { AnthropicStreamAccumulator } from './anthropic-stream.accumulator.js';

const ev = (event: Record<string, unknown>) => event as unknown as RawMessageStreamEvent;
const start = ev({
  type: 'message_start',
  message: {
    usage: {
      input_tokens: 40,
      output_tokens: 1,
      cache_read_input_tokens: 1000,
      cache_creation_input_tokens: 0,
    },
  },
});

describe('AnthropicStreamAccumulator', () => {
  it('assembles thinking, text and two tool uses, and reports usage with cache reads', () => {
    const acc = new AnthropicStreamAccumulator('anthropic/claude-x');
    const events = [
      start,
      ev({
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      }),
      ev({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'plan' } }),
      ev({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig' } }),
      ev({ type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }),
      ev({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Looking.' } }),
      ev({
        type: 'content_block_start',
        index: 2,
        content_block: { type: 'tool_use', id: 't1', name: 'read', input: {} },
      }),
      ev({
        type: 'content_block_delta',
        index: 2,
        delta: { type: 'input_json_delta', partial_json: '{"path":' },
      }),
      ev({
        type: 'content_block_start',
        index: 3,
        content_block: { type: 'tool_use', id: 't2', name: 'now', input: {} },
      }),
      ev({
        type: 'content_block_delta',
        index: 2,
        delta: { type: 'input_json_delta', partial_json: '"a.md"}' },
      }),
      ev({ type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 30 } }),
      ev({ type: 'message_stop' }),
    ].flatMap((e) => acc.push(e));
    expect(events).toEqual([
      { type: 'thinking_delta', text: 'plan' },
      { type: 'text_delta', text: 'Looking.' },
      { type: 'tool_call_start', id: 't1', name: 'read' },
      { type: 'tool_call_delta', id: 't1', argumentsDelta: '{"path":' },
      { type: 'tool_call_start', id: 't2', name: 'now' },
      { type: 'tool_call_delta', id: 't1', argumentsDelta: '"a.md"}' },
    ]);
    expect(acc.finish()).toEqual({
      type: 'done',
      message: {
        role: 'assistant',
        content: [
          { type: 'thinking', text: 'plan', signature: 'sig' },
          { type: 'text', text: 'Looking.' },
        ],
        toolCalls: [
          { id: 't1', name: 'read', input: { path: 'a.md' } },
          { id: 't2', name: 'now', input: {} },
        ],
      },
      stopReason: 'tool_use',
      usage: { inputTokens: 40, outputTokens: 30, cacheReadInputTokens: 1000 },
    });
  });

  it('maps max_tokens and refuses malformed tool input with a typed error', () => {
    const acc = new AnthropicStreamAccumulator('m');
    acc.push(start);
    acc.push(
      ev({
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 't', name: 'f', input: {} },
      }),
    );
    acc.push(
      ev({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: '{"cut' },
      }),
    );
    acc.push(
      ev({ type: 'message_delta', delta: { stop_reason: 'max_tokens' }, usage: { output_tokens: 5 } }),
    );
    expect(() => acc.finish()).toThrow(expect.objectContaining({ code: 'MODEL_REQUEST_FAILED' }));
    const text = new AnthropicStreamAccumulator('m');
    text.push(start);
    text.push(
      ev({ type: 'message_delta', delta: { stop_reason: 'max_tokens' }, usage: { output_tokens: 5 } }),
    );
    expect(text.finish().stopReason).toBe('max_tokens');
  });
});
