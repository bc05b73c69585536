import { describe, expect, it } from 'vitest';
import { AppError } from '@agentry/contracts';
import { paramOf } from './api-error.filter.js';

describe('/api error param', () => {
  it('names the field of a validation error', () => {
    expect(paramOf(new AppError('INVALID_REQUEST', 'name: name required'))).toBe('name');
    expect(paramOf(new AppError('INVALID_REQUEST', 'events.0.content: Required'))).toBe('events.0.content');
    // Mapped bodies are checked with the /v1 schema; the param names the /api field.
    expect(paramOf(new AppError('INVALID_REQUEST', 'mcp_servers.0.url: Invalid URL'))).toBe(
      'mcpServers.0.url',
    );
    expect(
      paramOf(new AppError('INVALID_REQUEST', 'Last-Event-ID: must be a non-negative event sequence number')),
    ).toBe('Last-Event-ID');
  });

  it('names nothing when the error is not about one field', () => {
    expect(paramOf(new AppError('INVALID_REQUEST', 'body: expected object, received array'))).toBeUndefined();
    expect(
      paramOf(new AppError('INVALID_REQUEST', 'Request body is not valid JSON: Unexpected end')),
    ).toBeUndefined();
    expect(paramOf(new AppError('NOT_FOUND', 'agent: no such agent'))).toBeUndefined();
    expect(paramOf(new Error('name: boom'))).toBeUndefined();
  });
});
