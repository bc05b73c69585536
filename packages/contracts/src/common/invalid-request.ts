import type { z } from 'zod';
import { AppError } from './errors.js';

/** One thing wrong with a request: where (dotted path, empty for the whole value) and what. */
export interface RequestIssue {
  path: string;
  message: string;
}

/** How many issues an error lists; a thoroughly wrong payload would otherwise produce a wall of text. */
const MAX_ISSUES = 5;

/** The issues of a failed parse, each naming its field and what is wrong with it. */
export function requestIssues(error: z.ZodError): RequestIssue[] {
  return error.issues.slice(0, MAX_ISSUES).map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.code === 'unrecognized_keys' ? `unknown field(s) ${issue.keys.join(', ')}` : issue.message,
  }));
}

/**
 * A typed INVALID_REQUEST (400) for a request that failed its schema: the message lists each field and what
 * is wrong with it, `details.issues` carries the same as data.
 */
export function invalidRequest(error: z.ZodError, details: Record<string, unknown> = {}): AppError {
  const issues = requestIssues(error);
  const more =
    error.issues.length > issues.length ? ` (and ${error.issues.length - issues.length} more)` : '';
  const message = issues
    .map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message))
    .join('; ');
  return new AppError('INVALID_REQUEST', `${message || 'invalid request'}${more}`, {
    details: { ...details, issues },
  });
}
