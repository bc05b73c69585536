import { AppError, type ErrorBody } from '@agentry/contracts';
import { sessionError } from '../agent-harness/harness-event.mapper.js';
import type { OutboundEvent } from '../sessions/turn-writer.js';

const TRY_AGAIN =
  'The session is idle again: send another message to retry, and if it keeps failing check the dataplane logs.';
/** Long enough to say what broke, short enough that a stack-sized message does not land in the log. */
const MAX_DETAIL = 300;

/**
 * The `session.error` a turn ends with when it fails outside the model loop's own error handling (a harness
 * exception, an unexpected failure of the platform): what went wrong, and what the user can do about it.
 */
export function turnFailureEvent(error: unknown): OutboundEvent {
  const body = turnFailureBody(error);
  return sessionError(body, body.retryable ? 'exhausted' : 'terminal');
}

function turnFailureBody(error: unknown): ErrorBody {
  if (AppError.is(error)) {
    const body = error.toBody();
    return {
      code: body.code,
      message: `The turn failed: ${clip(body.message)}. ${TRY_AGAIN}`,
      retryable: body.retryable,
    };
  }
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return {
    code: 'INTERNAL',
    message: `The turn failed unexpectedly (${clip(detail)}). ${TRY_AGAIN}`,
    retryable: false,
  };
}

function clip(text: string): string {
  const trimmed = text.trim().replace(/\.$/, '');
  return trimmed.length > MAX_DETAIL ? `${trimmed.slice(0, MAX_DETAIL)}…` : trimmed;
}
