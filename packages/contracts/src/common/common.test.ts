import { describe, expect, it } from 'vitest';
import { ListParamsSchema, applyMetadataPatch } from './common.js';
import { pageSchema } from './paging.js';
import { ListSessionsParamsSchema } from '../sessions/sessions.js';
import { AgentSchema } from '../agents/agents.js';

describe('list params', () => {
  it('default to 20 items and coerce query strings', () => {
    expect(ListParamsSchema.parse({})).toEqual({ limit: 20 });
    expect(ListParamsSchema.parse({ limit: '1000', order: 'desc', page: 'abc' })).toEqual({
      limit: 1000,
      order: 'desc',
      page: 'abc',
    });
  });

  it('reject limits outside 1..1000', () => {
    expect(ListParamsSchema.safeParse({ limit: '0' }).error!.issues[0]!.path).toEqual(['limit']);
    expect(ListParamsSchema.safeParse({ limit: '1001' }).error!.issues[0]!.path).toEqual(['limit']);
  });

  it('read "false" in the query as false', () => {
    expect(ListParamsSchema.parse({ include_archived: 'false' }).include_archived).toBe(false);
    expect(ListParamsSchema.parse({ include_archived: 'true' }).include_archived).toBe(true);
  });

  it('accept one or many statuses', () => {
    expect(ListSessionsParamsSchema.parse({ statuses: 'idle' }).statuses).toEqual(['idle']);
    expect(ListSessionsParamsSchema.parse({ statuses: ['idle', 'running'] }).statuses).toEqual([
      'idle',
      'running',
    ]);
    expect(ListSessionsParamsSchema.safeParse({ statuses: ['asleep'] }).success).toBe(false);
  });
});

describe('metadata patch', () => {
  it('upserts strings and deletes nulls', () => {
    expect(applyMetadataPatch({ a: '1', b: '2' }, { a: null, c: '3' })).toEqual({ b: '2', c: '3' });
    expect(applyMetadataPatch({ a: '1' }, undefined)).toEqual({ a: '1' });
    expect(applyMetadataPatch({ a: '1' }, null)).toEqual({});
  });
});

describe('page envelope', () => {
  it('wraps items with next_page and an optional prev_page', () => {
    const schema = pageSchema(AgentSchema.pick({ id: true }));
    expect(schema.parse({ data: [{ id: 'agent_1' }], next_page: null })).toEqual({
      data: [{ id: 'agent_1' }],
      next_page: null,
    });
    expect(schema.safeParse({ data: [] }).error!.issues[0]!.path).toEqual(['next_page']);
  });
});
