import { describe, expect, it } from 'vitest';
import type { EventSendParams } from '@anthropic-ai/sdk/resources/beta/sessions/events.js';
import { InboundEventSchema, SendEventsRequestSchema } from './inbound-events.js';
import { INBOUND_EVENT_TYPES, isInboundEventType } from './event-types.js';

function issues(value: unknown) {
  const result = SendEventsRequestSchema.safeParse(value);
  if (result.success) throw new Error('expected the request to be rejected');
  return result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
}

describe('SendEventsRequestSchema', () => {
  it('accepts the SDK documentation example', () => {
    const body: EventSendParams = {
      events: [{ content: [{ text: 'Where is my order #1234?', type: 'text' }], type: 'user.message' }],
    };
    expect(SendEventsRequestSchema.parse(body)).toEqual(body);
  });

  it('accepts every inbound event type as the SDK types it', () => {
    const body: EventSendParams = {
      events: [
        {
          type: 'user.message',
          content: [
            { type: 'text', text: 'look at this' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'document', source: { type: 'url', url: 'https://example.com/spec.pdf' }, title: 'spec' },
          ],
        },
        { type: 'user.interrupt' },
        { type: 'user.interrupt', session_thread_id: 'sthr_011CZkZVWa6oJjw1rgXZpnBt' },
        {
          type: 'user.tool_confirmation',
          tool_use_id: 'sevt_01',
          result: 'deny',
          deny_message: 'not on prod',
        },
        {
          type: 'user.tool_result',
          tool_use_id: 'sevt_02',
          content: [{ type: 'text', text: 'ok' }],
          is_error: false,
        },
        {
          type: 'user.custom_tool_result',
          custom_tool_use_id: 'sevt_03',
          content: [{ type: 'text', text: '42' }],
        },
        {
          type: 'user.define_outcome',
          description: 'A passing test suite',
          rubric: { type: 'text', content: 'all tests green' },
          max_iterations: 3,
        },
        { type: 'system.message', content: [{ type: 'text', text: 'The user is on the free plan.' }] },
      ],
    };
    const parsed = SendEventsRequestSchema.parse(body);
    expect(parsed.events.map((e) => e.type)).toEqual([
      'user.message',
      'user.interrupt',
      'user.interrupt',
      'user.tool_confirmation',
      'user.tool_result',
      'user.custom_tool_result',
      'user.define_outcome',
      'system.message',
    ]);
  });

  it('rejects an unknown event type with a message listing the allowed ones', () => {
    const found = issues({ events: [{ type: 'agent.message', content: [] }] });
    expect(found).toHaveLength(1);
    expect(found[0]!.path).toBe('events.0.type');
    expect(found[0]!.message).toContain('type must be one of');
    expect(found[0]!.message).toContain('user.tool_confirmation');
  });

  it('rejects unknown fields and names them', () => {
    const found = issues({ events: [{ type: 'user.interrupt', reason: 'bored' }] });
    expect(found[0]!.path).toBe('events.0');
    expect(found[0]!.message).toContain('reason');
  });

  it('names the bad field of a known event', () => {
    const found = issues({
      events: [{ type: 'user.tool_confirmation', tool_use_id: 'sevt_1', result: 'maybe' }],
    });
    expect(found[0]!.path).toBe('events.0.result');
  });

  it('requires at least one content block and at least one event', () => {
    expect(issues({ events: [{ type: 'user.message', content: [] }] })[0]!.path).toBe('events.0.content');
    expect(issues({ events: [] })[0]!.message).toContain('at least one event');
  });

  it('caps a batch at 50 events', () => {
    const one = { type: 'user.interrupt' };
    expect(SendEventsRequestSchema.safeParse({ events: Array(50).fill(one) }).success).toBe(true);
    expect(issues({ events: Array(51).fill(one) })[0]!.message).toContain('at most 50');
  });

  it('bounds define_outcome iterations to 20', () => {
    const outcome = {
      type: 'user.define_outcome',
      description: 'd',
      rubric: { type: 'file', file_id: 'file_1' },
    };
    expect(InboundEventSchema.safeParse({ ...outcome, max_iterations: 20 }).success).toBe(true);
    expect(InboundEventSchema.safeParse({ ...outcome, max_iterations: 21 }).success).toBe(false);
  });
});

describe('event type lists', () => {
  it('classifies inbound types', () => {
    expect(INBOUND_EVENT_TYPES).toContain('user.custom_tool_result');
    expect(isInboundEventType('user.message')).toBe(true);
    expect(isInboundEventType('agent.message')).toBe(false);
    expect(isInboundEventType('user.unknown')).toBe(false);
  });
});

describe('tool results posted by the SDK tool runner', () => {
  it('accept Messages-API image blocks with cache_control, as the runner forwards them', () => {
    const result = InboundEventSchema.safeParse({
      type: 'user.tool_result',
      tool_use_id: 'sevt_1',
      is_error: false,
      content: [
        {
          type: 'image',
          source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' },
          cache_control: { type: 'ephemeral' },
        },
        {
          type: 'search_result',
          source: 's',
          title: 't',
          content: [{ type: 'text', text: 'x' }],
          citations: { enabled: false },
        },
      ],
    });
    expect(result.success).toBe(true);
  });
});
