import { describe, expect, it } from 'vitest';
import { liveEventOf } from './live-event.js';

const event = {
  id: 'sevt_1',
  type: 'agent.message',
  content: [{ type: 'text', text: 'hi' }],
  processed_at: '2026-12-07T10:00:00.000Z',
  created_at: '2026-12-07T10:00:00.000Z',
};

describe('liveEventOf', () => {
  it('passes an announced event on as it was sent', () => {
    const message = { seq: 3, event };
    expect(liveEventOf(message)).toBe(message);
  });

  it.each([
    ['not an object', 'sevt_1'],
    ['no seq', { event }],
    ['a seq of 0', { seq: 0, event }],
    ['a fractional seq', { seq: 1.5, event }],
    ['no event', { seq: 1 }],
    ['an event without a type', { seq: 1, event: { ...event, type: undefined } }],
    ['an event without an id', { seq: 1, event: { ...event, id: 7 } }],
    ['an event without its creation time', { seq: 1, event: { ...event, created_at: null } }],
  ])('drops %s', (_label, message) => {
    expect(liveEventOf(message)).toBeNull();
  });
});
