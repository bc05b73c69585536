import { AppError } from '@agentry/contracts';

/** A provider SDK failure reduced to what decides its error code. */
export interface ProviderFailure {
  kind: 'aborted' | 'timeout' | 'connection' | 'status';
  status?: number;
  headers?: Headers;
  message: string;
  /** Provider error type or code: "overloaded_error", "context_length_exceeded", "insufficient_quota"... */
  errorType?: string;
  errorCode?: string;
  cause: unknown;
}

// Phrases OpenAI, vLLM, DashScope, Ollama and Anthropic use when the prompt does not fit the window.
const CONTEXT_OVERFLOW_PATTERNS = [
  /context[_ ]length/i,
  /maximum context/i,
  /context window/i,
  /prompt is too long/i,
  /too many tokens/i,
  /input length.*(exceed|should be|too long)/i,
  /exceed(s|ed)? (the )?context limit/i,
  /range of input length/i,
];

/** Maps a provider failure to the platform's typed model errors; the retryable flag drives our backoff. */
export function toModelError(failure: ProviderFailure, modelId: string): AppError {
  const details: Record<string, unknown> = { model: modelId };
  if (failure.status !== undefined) details.status = failure.status;
  if (failure.errorType) details.providerType = failure.errorType;
  const options = (retryable: boolean) => ({ cause: failure.cause, retryable, details });
  const text = `${modelId}: ${failure.message}`;

  switch (failure.kind) {
    case 'aborted':
      return new AppError('ABORTED', 'The model request was aborted', { cause: failure.cause, details });
    case 'timeout':
      return new AppError('MODEL_REQUEST_FAILED', `${modelId}: request timed out`, options(true));
    case 'connection':
      return new AppError(
        'MODEL_REQUEST_FAILED',
        `${modelId}: connection failed: ${failure.message}`,
        options(true),
      );
    case 'status':
      break;
  }
  const retryAfterMs = parseRetryAfter(failure.headers);
  if (retryAfterMs !== undefined) details.retryAfterMs = retryAfterMs;
  const type = failure.errorType ?? failure.errorCode ?? '';
  const status = failure.status;

  if (type === 'overloaded_error' || status === 529 || status === 503) {
    return new AppError('MODEL_OVERLOADED', text, options(true));
  }
  if (status === 429 || type === 'rate_limit_error') {
    // An exhausted quota will not recover by waiting.
    if (failure.errorCode === 'insufficient_quota')
      return new AppError('MODEL_REQUEST_FAILED', text, options(false));
    return new AppError('MODEL_RATE_LIMITED', text, options(true));
  }
  if (status === 401 || status === 403 || type === 'authentication_error' || type === 'permission_error') {
    return new AppError('UNAUTHENTICATED', text, options(false));
  }
  if (
    status === 413 ||
    failure.errorCode === 'context_length_exceeded' ||
    CONTEXT_OVERFLOW_PATTERNS.some((p) => p.test(failure.message))
  ) {
    if (status === undefined || (status >= 400 && status < 500))
      return new AppError('CONTEXT_OVERFLOW', text, options(false));
  }
  if (status === undefined || status >= 500 || type === 'api_error') {
    return new AppError('MODEL_REQUEST_FAILED', text, options(true));
  }
  return new AppError('MODEL_REQUEST_FAILED', text, options(false));
}

/** Reads `retry-after-ms` (OpenAI, Anthropic) or `retry-after` (seconds or an HTTP date) in milliseconds. */
export function parseRetryAfter(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
