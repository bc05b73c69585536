import { describe, expect, it } from 'vitest';
import { parseRetryAfter, toModelError, type ProviderFailure } from './provider-error.mapper.js';

const status = (code: number, message: string, extra: Partial<ProviderFailure> = {}): ProviderFailure => ({
  kind: 'status',
  status: code,
  message,
  cause: new Error(message),
  ...extra,
});

describe('toModelError', () => {
  it.each<[ProviderFailure, string, boolean]>([
    [status(429, 'slow down'), 'MODEL_RATE_LIMITED', true],
    [status(529, 'Overloaded'), 'MODEL_OVERLOADED', true],
    [status(503, 'unavailable'), 'MODEL_OVERLOADED', true],
    [status(500, 'boom'), 'MODEL_REQUEST_FAILED', true],
    [status(502, 'bad gateway'), 'MODEL_REQUEST_FAILED', true],
    [status(400, 'messages: field required'), 'MODEL_REQUEST_FAILED', false],
    [status(404, 'model not found'), 'MODEL_REQUEST_FAILED', false],
    [status(401, 'invalid key'), 'UNAUTHENTICATED', false],
    [status(403, 'forbidden'), 'UNAUTHENTICATED', false],
    [
      status(429, 'You exceeded your current quota', { errorCode: 'insufficient_quota' }),
      'MODEL_REQUEST_FAILED',
      false,
    ],
    [
      {
        kind: 'status',
        message: 'Overloaded',
        errorType: 'overloaded_error',
        cause: null,
      },
      'MODEL_OVERLOADED',
      true,
    ],
    [{ kind: 'connection', message: 'ECONNREFUSED', cause: null }, 'MODEL_REQUEST_FAILED', true],
    [{ kind: 'timeout', message: 'timed out', cause: null }, 'MODEL_REQUEST_FAILED', true],
    [{ kind: 'aborted', message: 'aborted', cause: null }, 'ABORTED', false],
  ])('%#: maps to %s (retryable %s)', (failure, code, retryable) => {
    const error = toModelError(failure, 'openai/gpt-4.1');
    expect(error.code).toBe(code);
    expect(error.retryable).toBe(retryable);
  });

  it.each([
    "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens",
    'prompt is too long: 210000 tokens > 200000 maximum',
    'input length and `max_tokens` exceed context limit: 190000 + 20000 > 200000',
    'Range of input length should be [1, 30720]',
    'The input (40000 tokens) is longer than the model context window',
  ])('detects context overflow in "%s"', (message) => {
    expect(toModelError(status(400, message), 'm').code).toBe('CONTEXT_OVERFLOW');
  });

  it('detects context overflow by error code and by 413', () => {
    expect(toModelError(status(400, 'too big', { errorCode: 'context_length_exceeded' }), 'm').code).toBe(
      'CONTEXT_OVERFLOW',
    );
    expect(toModelError(status(413, 'request_too_large'), 'm').code).toBe('CONTEXT_OVERFLOW');
  });

  it('carries Retry-After and the model id', () => {
    const error = toModelError(
      status(429, 'slow', { headers: new Headers({ 'retry-after': '3' }) }),
      'dashscope/qwen-max',
    );
    expect(error.details).toMatchObject({ retryAfterMs: 3000, model: 'dashscope/qwen-max', status: 429 });
    expect(error.message).toContain('dashscope/qwen-max');
  });
});

describe('parseRetryAfter', () => {
  it('prefers retry-after-ms, then seconds, then an HTTP date', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    expect(parseRetryAfter(new Headers({ 'retry-after': '1.5' }))).toBe(1500);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:04 GMT' }), now)).toBe(4000);
  });

  it('ignores missing or malformed values', () => {
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter(new Headers())).toBeUndefined();
    expect(parseRetryAfter(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
  });
});
