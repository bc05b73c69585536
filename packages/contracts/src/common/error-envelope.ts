import { z } from 'zod';
import type { ErrorCode } from './errors.js';

/** Error `type` values of the CMA envelope (as the SDK declares them, plus 413's `request_too_large`). */
export const CMA_ERROR_TYPES = [
  'invalid_request_error',
  'authentication_error',
  'billing_error',
  'permission_error',
  'not_found_error',
  'conflict_error',
  'request_too_large',
  'rate_limit_error',
  'timeout_error',
  'api_error',
  'overloaded_error',
  'memory_precondition_failed_error',
  'memory_path_conflict_error',
] as const;
const CmaErrorTypeSchema = z.enum(CMA_ERROR_TYPES);
export type CmaErrorType = z.infer<typeof CmaErrorTypeSchema>;

/** `{type:'error', error:{type, message}, request_id}` — the body of every non-2xx `/v1` reply. */
export const ErrorEnvelopeSchema = z.object({
  type: z.literal('error'),
  error: z.object({
    type: CmaErrorTypeSchema,
    message: z.string(),
    /** Agentry's own code, so clients can branch more finely than on `type`. */
    code: z.string().optional(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
  request_id: z.string().nullable(),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;

/** How each platform error code surfaces to CMA clients. */
export const CMA_ERROR_TYPE_BY_CODE: Record<ErrorCode, CmaErrorType> = {
  INVALID_REQUEST: 'invalid_request_error',
  UNAUTHENTICATED: 'authentication_error',
  PERMISSION_DENIED: 'permission_error',
  NOT_FOUND: 'not_found_error',
  CONFLICT: 'conflict_error',
  VERSION_CONFLICT: 'conflict_error',
  IDEMPOTENCY_CONFLICT: 'conflict_error',
  PRECONDITION_FAILED: 'invalid_request_error',
  PAYLOAD_TOO_LARGE: 'request_too_large',
  RATE_LIMITED: 'rate_limit_error',
  BUDGET_EXCEEDED: 'invalid_request_error',
  PATH_ESCAPE: 'invalid_request_error',
  ALREADY_EXISTS: 'conflict_error',
  READ_ONLY: 'permission_error',
  TIMEOUT: 'timeout_error',
  ABORTED: 'api_error',
  UNAVAILABLE: 'overloaded_error',
  MODEL_OVERLOADED: 'overloaded_error',
  MODEL_RATE_LIMITED: 'rate_limit_error',
  MODEL_REQUEST_FAILED: 'api_error',
  CONTEXT_OVERFLOW: 'invalid_request_error',
  TOOL_FAILED: 'api_error',
  MCP_CONNECTION_FAILED: 'api_error',
  BAD_REPLY: 'api_error',
  INTERNAL: 'api_error',
};

export interface ErrorEnvelopeInput {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown> | undefined;
}

/** Builds the envelope for an error; internal details are kept out unless the caller passes them. */
export function toErrorEnvelope(error: ErrorEnvelopeInput, requestId: string | null): ErrorEnvelope {
  const body: ErrorEnvelope['error'] = {
    type: CMA_ERROR_TYPE_BY_CODE[error.code],
    message: error.message,
    code: error.code,
  };
  if (error.details) body.details = error.details;
  return { type: 'error', error: body, request_id: requestId };
}
