import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../model-port.js';
import { toAnthropicRequest } from './anthropic-request.mapper.js';

describe('toAnthropicRequest', () => {
  const history: ChatMessage[] = [
    { role: 'system', content: 'rules' },
    { role: 'user', content: [{ type: 'text', text: 'go' }] },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', text: 'signed', signature: 's1' },
        { type: 'thinking', text: 'unsigned' },
        { type: 'text', text: 'calling' },
      ],
      toolCalls: [
        { id: 'a', name: 'f', input: { n: 1 } },
        { id: 'b', name: 'f', input: { n: 2 } },
      ],
    },
    { role: 'tool', toolCallId: 'a', toolName: 'f', content: [{ type: 'text', text: 'one' }] },
    {
      role: 'tool',
      toolCallId: 'b',
      toolName: 'f',
      content: [{ type: 'image', mediaType: 'image/png', data: 'AAA' }],
      isError: true,
    },
    { role: 'user', content: [{ type: 'text', text: 'and?' }] },
  ];

  it('puts parallel tool results and the next user text in one user turn', () => {
    const { system, messages } = toAnthropicRequest(history, false);
    expect(system).toEqual([{ type: 'text', text: 'rules' }]);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages[1]?.content).toEqual([
      { type: 'thinking', thinking: 'signed', signature: 's1' },
      { type: 'text', text: 'calling' },
      { type: 'tool_use', id: 'a', name: 'f', input: { n: 1 } },
      { type: 'tool_use', id: 'b', name: 'f', input: { n: 2 } },
    ]);
    expect(messages[2]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'a', content: [{ type: 'text', text: 'one' }] },
      {
        type: 'tool_result',
        tool_use_id: 'b',
        is_error: true,
        content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAA' } }],
      },
      { type: 'text', text: 'and?' },
    ]);
  });

  it('marks cache breakpoints on the system prompt and the last block only when asked', () => {
    const cached = toAnthropicRequest(history, true);
    expect(cached.system?.[0]).toMatchObject({ cache_control: { type: 'ephemeral' } });
    expect(cached.messages[2]?.content.at(-1)).toMatchObject({ cache_control: { type: 'ephemeral' } });
    expect(cached.messages[2]?.content[0]).not.toHaveProperty('cache_control');
    expect(toAnthropicRequest(history, false).messages[2]?.content.at(-1)).not.toHaveProperty(
      'cache_control',
    );
  });
});
