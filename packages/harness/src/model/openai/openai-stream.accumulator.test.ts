import { describe, expect, it } from 'vitest';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ChatMessage } from '../model-port.js';
import { toOpenAiMessages } from './openai-request.mapper.js';
import { OpenAiStreamAccumulator } from './openai-stream.accumulator.js';

const chunk = (delta: Record<string, unknown>, finish: string | null = null): ChatCompletionChunk =>
  ({
    id: 'c',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish }],
  }) as ChatCompletionChunk;

describe('OpenAiStreamAccumulator', () => {
  it('keeps interleaved parallel tool calls apart by index', () => {
    const acc = new OpenAiStreamAccumulator('m');
    const events = [
      chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'read', arguments: '{"pa' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'b', function: { name: 'grep', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: '{"q":"x"}' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: 'th":"/a"}' } }] }),
      chunk({}, 'tool_calls'),
    ].flatMap((c) => acc.push(c));
    expect(events.filter((e) => e.type === 'tool_call_start')).toEqual([
      { type: 'tool_call_start', id: 'a', name: 'read' },
      { type: 'tool_call_start', id: 'b', name: 'grep' },
    ]);
    const done = acc.finish();
    expect(done.stopReason).toBe('tool_use');
    expect(done.message.toolCalls).toEqual([
      { id: 'a', name: 'read', input: { path: '/a' } },
      { id: 'b', name: 'grep', input: { q: 'x' } },
    ]);
  });

  it('treats tool calls under a "stop" finish as tool use and empty arguments as {}', () => {
    const acc = new OpenAiStreamAccumulator('m');
    acc.push(chunk({ tool_calls: [{ index: 0, id: 'x', function: { name: 'now', arguments: '' } }] }));
    acc.push(chunk({}, 'stop'));
    expect(acc.finish()).toMatchObject({
      stopReason: 'tool_use',
      message: { toolCalls: [{ id: 'x', name: 'now', input: {} }] },
    });
  });

  it('maps length to max_tokens and rejects malformed arguments with a typed error', () => {
    const truncated = new OpenAiStreamAccumulator('m');
    truncated.push(chunk({ content: 'cut' }, 'length'));
    expect(truncated.finish().stopReason).toBe('max_tokens');
    const broken = new OpenAiStreamAccumulator('m');
    broken.push(chunk({ tool_calls: [{ index: 0, id: 'x', function: { name: 'f', arguments: '{"a":' } }] }));
    expect(() => broken.finish()).toThrow(expect.objectContaining({ code: 'MODEL_REQUEST_FAILED' }));
  });
});

describe('toOpenAiMessages', () => {
  it('maps images to data URLs and tool errors to a marked text result', () => {
    const history: ChatMessage[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image', mediaType: 'image/png', data: 'AAA' },
        ],
      },
      {
        role: 'assistant',
        content: [{ type: 'thinking', text: 'hmm' }],
        toolCalls: [{ id: 't', name: 'f', input: { a: 1 } }],
      },
      {
        role: 'tool',
        toolCallId: 't',
        toolName: 'f',
        content: [{ type: 'text', text: 'nope' }],
        isError: true,
      },
    ];
    expect(toOpenAiMessages(history)).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAA' } },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 't', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
      },
      { role: 'tool', tool_call_id: 't', content: 'Error: nope' },
    ]);
  });
});
