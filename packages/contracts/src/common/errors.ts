import { z } from 'zod';

/** Every error the platform reports carries one of these codes. */
export const ErrorCodeSchema = z.enum([
  'INVALID_REQUEST',
  'UNAUTHENTICATED',
  'PERMISSION_DENIED',
  'NOT_FOUND',
  'CONFLICT',
  'VERSION_CONFLICT',
  'IDEMPOTENCY_CONFLICT',
  'PRECONDITION_FAILED',
  'PAYLOAD_TOO_LARGE',
  'RATE_LIMITED',
  'BUDGET_EXCEEDED',
  'PATH_ESCAPE',
  'ALREADY_EXISTS',
  'READ_ONLY',
  'TIMEOUT',
  'ABORTED',
  'UNAVAILABLE',
  'MODEL_OVERLOADED',
  'MODEL_RATE_LIMITED',
  'MODEL_REQUEST_FAILED',
  'CONTEXT_OVERFLOW',
  'TOOL_FAILED',
  'MCP_CONNECTION_FAILED',
  /** Another service answered with a reply its catalog schema does not describe. */
  'BAD_REPLY',
  'INTERNAL',
]);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

/** HTTP status each code maps to at the gateway edge. */
export const HTTP_STATUS_BY_CODE: Record<ErrorCode, number> = {
  INVALID_REQUEST: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  VERSION_CONFLICT: 409,
  IDEMPOTENCY_CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  BUDGET_EXCEEDED: 400,
  PATH_ESCAPE: 400,
  ALREADY_EXISTS: 409,
  READ_ONLY: 403,
  TIMEOUT: 504,
  ABORTED: 499,
  UNAVAILABLE: 503,
  MODEL_OVERLOADED: 529,
  MODEL_RATE_LIMITED: 429,
  MODEL_REQUEST_FAILED: 502,
  CONTEXT_OVERFLOW: 400,
  TOOL_FAILED: 500,
  MCP_CONNECTION_FAILED: 502,
  BAD_REPLY: 502,
  INTERNAL: 500,
};

/** The wire shape of an error between services (NATS replies, job failures). */
export const ErrorBodySchema = z.object({
  code: ErrorCodeSchema,
  message: z.string(),
  retryable: z.boolean().default(false),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export interface AppErrorOptions {
  cause?: unknown;
  retryable?: boolean;
  details?: Record<string, unknown>;
}

/** The one error class of the platform: a code, a message that says what is wrong, and a retryable flag. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.details = options.details;
  }

  get httpStatus(): number {
    return HTTP_STATUS_BY_CODE[this.code];
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { code: this.code, message: this.message, retryable: this.retryable };
    if (this.details) body.details = this.details;
    return body;
  }

  static fromBody(body: ErrorBody): AppError {
    return new AppError(body.code, body.message, { retryable: body.retryable, details: body.details });
  }

  static is(value: unknown, code?: ErrorCode): value is AppError {
    return value instanceof AppError && (code === undefined || value.code === code);
  }
}
