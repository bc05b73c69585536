import { z } from 'zod';
import type { ErrorCode } from '../common/errors.js';

/** `session.error` error types (CMA); clients must tolerate unknown ones, so readers stay open. */
const SESSION_ERROR_TYPES = [
  'unknown_error',
  'model_overloaded_error',
  'model_rate_limited_error',
  'model_request_failed_error',
  'mcp_connection_failed_error',
  'mcp_authentication_failed_error',
  'billing_error',
  'credential_host_unreachable_error',
  'tool_use_limit_reached_error',
  'compaction_limit_reached_error',
  'repository_authentication_error',
  'repository_forbidden_error',
  'repository_not_found_error',
  'repository_checkout_error',
  'repository_clone_error',
] as const;
const SessionErrorTypeSchema = z.enum(SESSION_ERROR_TYPES);
export type SessionErrorType = z.infer<typeof SessionErrorTypeSchema>;

/** Whether the platform is retrying, gave up after retries, or will never retry. */
const RetryStatusSchema = z.object({ type: z.enum(['retrying', 'exhausted', 'terminal']) });
export type RetryStatus = z.infer<typeof RetryStatusSchema>;

export const SessionErrorObjectSchema = z.object({
  type: SessionErrorTypeSchema,
  message: z.string(),
  retry_status: RetryStatusSchema,
  // Present on the MCP, credential and repository error types respectively.
  mcp_server_name: z.string().optional(),
  credential_id: z.string().optional(),
  vault_id: z.string().optional(),
  repository_url: z.string().nullable().optional(),
});
export type SessionErrorObject = z.infer<typeof SessionErrorObjectSchema>;

/** The `session.error` type a platform error surfaces as; codes without a CMA counterpart are `unknown_error`. */
function sessionErrorTypeFor(code: ErrorCode): SessionErrorType {
  switch (code) {
    case 'MODEL_OVERLOADED':
      return 'model_overloaded_error';
    case 'MODEL_RATE_LIMITED':
      return 'model_rate_limited_error';
    case 'MODEL_REQUEST_FAILED':
    case 'CONTEXT_OVERFLOW':
      return 'model_request_failed_error';
    case 'MCP_CONNECTION_FAILED':
      return 'mcp_connection_failed_error';
    case 'BUDGET_EXCEEDED':
      return 'billing_error';
    default:
      return 'unknown_error';
  }
}

/** Builds the `error` of a `session.error` event. */
export function toSessionErrorObject(
  error: { code: ErrorCode; message: string },
  retryStatus: RetryStatus['type'],
  extra: Pick<SessionErrorObject, 'mcp_server_name' | 'credential_id' | 'vault_id' | 'repository_url'> = {},
): SessionErrorObject {
  return {
    type: sessionErrorTypeFor(error.code),
    message: error.message,
    retry_status: { type: retryStatus },
    ...extra,
  };
}
