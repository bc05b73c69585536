import { describe, expect, it } from 'vitest';
import { ListEventsParamsSchema, StreamEventsParamsSchema } from './event-list-params.js';

describe('event list and stream params', () => {
  it('read `types[]` as one or many event types, including ones Agentry never emits', () => {
    expect(ListEventsParamsSchema.parse({ types: 'agent.message' }).types).toEqual(['agent.message']);
    expect(
      ListEventsParamsSchema.parse({ types: ['agent.message', 'session.thread_created'] }).types,
    ).toHaveLength(2);
    expect(ListEventsParamsSchema.safeParse({ types: ['DROP TABLE'] }).error!.issues[0]!.path).toEqual([
      'types',
      0,
    ]);
  });

  it('read `after` as a sequence number and default the page size to 20', () => {
    expect(ListEventsParamsSchema.parse({ after: '41', limit: '1000' })).toEqual({ after: 41, limit: 1000 });
    expect(ListEventsParamsSchema.parse({}).limit).toBe(20);
    expect(ListEventsParamsSchema.safeParse({ after: '-1' }).success).toBe(false);
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
