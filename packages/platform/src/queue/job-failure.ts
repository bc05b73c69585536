import { AppError } from '@agentry/contracts';
import { UnrecoverableError } from 'bullmq';
import { ZodError } from 'zod';

/**
 * Whether running the job again cannot help: a typed error that says it is not retryable, or a payload its
 * schema refuses. Anything else (a crash, a database or network outage) may pass on the next attempt.
 */
export function isUnrecoverable(error: unknown): boolean {
  return (error instanceof AppError && !error.retryable) || error instanceof ZodError;
}

/** The error a BullMQ processor throws: `UnrecoverableError` fails the job at once instead of retrying it. */
export function toJobFailure(error: unknown): unknown {
  if (!isUnrecoverable(error)) return error;
  const code = error instanceof AppError ? error.code : 'INVALID_REQUEST';
  return Object.assign(new UnrecoverableError(`${code}: ${(error as Error).message}`), { cause: error });
}
