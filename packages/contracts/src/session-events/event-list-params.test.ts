import { describe, expect, it } from 'vitest';
import { StreamEventsParamsSchema } from './event-list-params.js';

describe('event stream params', () => {
  it('read `after` as a sequence number', () => {
    expect(StreamEventsParamsSchema.parse({ after: '41' })).toEqual({ after: 41 });
    expect(StreamEventsParamsSchema.safeParse({ after: '-1' }).success).toBe(false);
  });

  it('allow previews only of messages and thinking', () => {
    expect(StreamEventsParamsSchema.parse({ event_deltas: 'agent.message' }).event_deltas).toEqual([
      'agent.message',
    ]);
    expect(
      StreamEventsParamsSchema.safeParse({ event_deltas: ['agent.tool_use'] }).error!.issues[0]!.path,
    ).toEqual(['event_deltas', 0]);
  });
});
