import { AppError } from '@agentry/contracts';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, ModelRequest, ModelStreamEvent } from '../model/model-port.js';
import { resolveModel } from '../model/model.resolver.js';
import { ScriptedModel } from './scripted-model.js';
import { scriptedModelFactory } from './scripted-model.factory.js';

async function drain(model: ScriptedModel, request: ModelRequest): Promise<ModelStreamEvent[]> {
  const out: ModelStreamEvent[] = [];
  for await (const e of model.stream(request)) out.push(e);
  return out;
}

const user = (text: string): ChatMessage => ({ role: 'user', content: [{ type: 'text', text }] });

const script = {
  chunkSize: 4,
  turns: [
    {
      match: '^deploy',
      reply: [
        {
          thinking: 'check first',
          toolCalls: [{ name: 'status', input: { env: 'prod' } }, { name: 'lint' }],
        },
        'deployed',
      ],
    },
    { reply: ['first ordered reply'] },
    { reply: [{ ask: 'Which branch?' }] },
  ],
};

describe('ScriptedModel', () => {
  it('without a script echoes the last user message with deterministic usage', async () => {
    const events = await drain(new ScriptedModel(), { messages: [user('hello there')] });
    const done = events.at(-1)!;
    expect(done).toMatchObject({
      type: 'done',
      stopReason: 'end_turn',
      message: { content: [{ type: 'text', text: 'You said: hello there' }] },
    });
    expect(done.type === 'done' && done.usage).toEqual({
      inputTokens: Math.ceil('hello there'.length / 4),
      outputTokens: Math.ceil('You said: hello there'.length / 4),
    });
    expect(
      events
        .filter((e) => e.type === 'text_delta')
        .map((e) => (e.type === 'text_delta' ? e.text : ''))
        .join(''),
    ).toBe('You said: hello there');
  });

  it('two instances produce identical streams for the same conversation (state comes from the conversation)', async () => {
    const conversation: ChatMessage[] = [user('deploy now')];
    const a = await drain(new ScriptedModel({ script }), { messages: conversation });
    const b = await drain(new ScriptedModel({ script }), { messages: conversation });
    expect(a).toEqual(b);
    const done = a.at(-1)!;
    if (done.type !== 'done') throw new Error('no done');
    expect(done.stopReason).toBe('tool_use');
    expect(done.message.toolCalls?.map((c) => c.name)).toEqual(['status', 'lint']);
    expect(done.message.content[0]).toEqual({ type: 'thinking', text: 'check first' });

    // The next step is chosen by the number of assistant messages since the user message.
    const next = [
      ...conversation,
      done.message,
      ...done.message.toolCalls!.map((c): ChatMessage => ({
        role: 'tool',
        toolCallId: c.id,
        toolName: c.name,
        content: [],
      })),
    ];
    const second = await drain(new ScriptedModel({ script }), { messages: next });
    expect(
      second.filter((e) => e.type === 'text_delta').map((e) => (e.type === 'text_delta' ? e.text : '')),
    ).toEqual(['depl', 'oyed']);
  });

  it('serves turns without match in user-message order, and asks end the turn with a question', async () => {
    const model = new ScriptedModel({ script });
    const first = await drain(model, { messages: [user('hi')] });
    expect(first.at(-1)).toMatchObject({ message: { content: [{ text: 'first ordered reply' }] } });
    const history: ChatMessage[] = [
      user('hi'),
      { role: 'assistant', content: [{ type: 'text', text: 'first ordered reply' }] },
      user('go on'),
    ];
    const second = await drain(model, { messages: history });
    expect(second.at(-1)).toMatchObject({
      stopReason: 'end_turn',
      message: { content: [{ text: 'Which branch?' }] },
    });
  });

  it('fills {{tools}} with the tools offered and {{tool_results}} with the results answering its last call', async () => {
    const model = new ScriptedModel({
      script: {
        turns: [{ reply: [{ toolCall: { name: 'lookup' } }, 'offered: {{tools}}; saw: {{tool_results}}'] }],
      },
    });
    const call: ChatMessage = {
      role: 'assistant',
      content: [],
      toolCalls: [{ id: 't1', name: 'lookup', input: {} }],
    };
    const result: ChatMessage = {
      role: 'tool',
      toolCallId: 't1',
      toolName: 'lookup',
      content: [{ type: 'text', text: '42 apples' }],
    };
    const tools = [
      { name: 'lookup', description: 'd', inputSchema: { type: 'object' } },
      { name: 'other', description: 'd', inputSchema: { type: 'object' } },
    ];
    const events = await drain(model, { messages: [user('count'), call, result], tools });
    expect(events.at(-1)).toMatchObject({
      message: { content: [{ type: 'text', text: 'offered: lookup, other; saw: 42 apples' }] },
    });
  });

  it('fails the first `times` attempts with the scripted error code', async () => {
    const model = new ScriptedModel({
      script: { turns: [{ reply: [{ text: 'ok', error: { code: 'MODEL_OVERLOADED', times: 2 } }] }] },
    });
    for (const attempt of [0, 1]) {
      const err = await drain(model, { messages: [user('x')], options: { attempt } }).catch(
        (e: unknown) => e,
      );
      expect(AppError.is(err, 'MODEL_OVERLOADED')).toBe(true);
      expect((err as AppError).retryable).toBe(true);
    }
    expect((await drain(model, { messages: [user('x')], options: { attempt: 2 } })).at(-1)).toMatchObject({
      type: 'done',
    });
  });

  it('rejects an invalid script with INVALID_REQUEST', () => {
    expect(
      () => new ScriptedModel({ script: { turns: [{ reply: [{ error: { code: 'NOPE' } }] }] } }),
    ).toThrow(/error.code/);
    expect(() => new ScriptedModel({ script: { turns: [{ match: '(', reply: [] }] } })).toThrow(/regex/);
    expect(() => new ScriptedModel({ script: [] })).toThrow(AppError);
  });

  it('resolves from an agent model config through the model resolver, script in the settings', async () => {
    const model = resolveModel(
      'scripted',
      { scripted: scriptedModelFactory },
      { script: { turns: [{ reply: ['from settings'] }] } },
    );
    expect(model.id).toBe('scripted');
    expect((await drain(model as ScriptedModel, { messages: [user('x')] })).at(-1)).toMatchObject({
      message: { content: [{ text: 'from settings' }] },
    });
    expect(() =>
      resolveModel('scripted', { scripted: scriptedModelFactory }, { script: { turns: 'no' } }),
    ).toThrow(/Invalid model script/);
  });
});
