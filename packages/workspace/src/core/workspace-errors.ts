import { AppError } from '@agentry/contracts';

/** Constructors for the typed errors every backend reports, so messages read the same everywhere. */
export const WorkspaceErrors = {
  notFound: (path: string) =>
    withoutStack(
      () => new AppError('NOT_FOUND', `No such file or directory: ${path || '/'}`, { details: { path } }),
    ),
  exists: (path: string) => new AppError('ALREADY_EXISTS', `Already exists: ${path}`, { details: { path } }),
  conflict: (path: string, expected: string | null, actual: string | null) =>
    new AppError(
      'CONFLICT',
      `Version conflict on ${path}: expected ${expected ?? 'absent'}, found ${actual ?? 'absent'}`,
      {
        details: { path, expected, actual },
      },
    ),
  tooLarge: (path: string, size: number, limit: number) =>
    new AppError('PAYLOAD_TOO_LARGE', `${path} would be ${size} bytes; the limit is ${limit}`, {
      details: { path, size, limit },
    }),
  escape: (path: string, reason: string) =>
    new AppError('PATH_ESCAPE', `Rejected path (${reason}): ${JSON.stringify(path.slice(0, 200))}`, {
      details: { reason },
    }),
  readOnly: (path: string, why?: string) =>
    new AppError('READ_ONLY', `Read-only: ${path || '/'}${why ? ` (${why})` : ''}`, { details: { path } }),
  isDirectory: (path: string) =>
    new AppError('INVALID_REQUEST', `Is a directory: ${path || '/'}`, { details: { path } }),
  notDirectory: (path: string) =>
    new AppError('INVALID_REQUEST', `Not a directory: ${path}`, { details: { path } }),
  notEmpty: (path: string) => new AppError('CONFLICT', `Directory not empty: ${path}`, { details: { path } }),
  invalid: (message: string, details?: Record<string, unknown>) =>
    new AppError('INVALID_REQUEST', message, { details }),
};

/**
 * "No such file" answers a question rather than reporting a fault: every turn asks for context files
 * that may not exist. Capturing a stack for it cost more than the lookup (about 2% of a dataplane's CPU).
 */
function withoutStack(make: () => AppError): AppError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return make();
  } finally {
    Error.stackTraceLimit = limit;
  }
}
