import { Prisma } from '../generated/prisma/client.js';

/** Postgres SQLSTATEs for a serialization failure and a deadlock: safe to retry the whole transaction. */
const RETRYABLE_SQLSTATES = new Set(['40001', '40P01']);
const UNIQUE_VIOLATION_SQLSTATE = '23505';

interface DriverAdapterCause {
  originalCode?: string;
  constraint?: { fields?: unknown; index?: unknown };
}

/**
 * True when `error` is a unique-constraint violation, from a model query (P2002) or a raw query
 * (P2010 with SQLSTATE 23505). With `columns`, the violated constraint must cover exactly those
 * database columns (e.g. `['session_id', 'seq']`) when the driver reports them.
 */
export function isUniqueViolation(error: unknown, columns?: readonly string[]): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  const cause = driverCause(error);
  const unique = error.code === 'P2002' || cause?.originalCode === UNIQUE_VIOLATION_SQLSTATE;
  if (!unique || !columns) return unique;
  const fields = cause?.constraint?.fields;
  if (!Array.isArray(fields)) return true;
  return fields.length === columns.length && columns.every((c) => fields.includes(c));
}

/** True for P2034 (write conflict or deadlock) and the equivalent raw Postgres SQLSTATEs. */
export function isRetryableTransactionError(error: unknown): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  if (error.code === 'P2034') return true;
  const code = driverCause(error)?.originalCode;
  return code !== undefined && RETRYABLE_SQLSTATES.has(code);
}

function driverCause(error: Prisma.PrismaClientKnownRequestError): DriverAdapterCause | undefined {
  return (error.meta as { driverAdapterError?: { cause?: DriverAdapterCause } } | undefined)
    ?.driverAdapterError?.cause;
}
