import { describe, expect, it } from 'vitest';
import { parseQueryString } from './query-string.parser.js';

describe('parseQueryString', () => {
  it('turns bracketed keys into arrays, even with one value', () => {
    expect(parseQueryString('statuses[]=idle&statuses[]=running&limit=5')).toEqual({
      statuses: ['idle', 'running'],
      limit: '5',
    });
    expect(parseQueryString('types[]=agent.message')).toEqual({ types: ['agent.message'] });
  });

  it('keeps plain keys as they are', () => {
    expect(parseQueryString('after=3&order=asc')).toEqual({ after: '3', order: 'asc' });
  });
});
