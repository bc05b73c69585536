/**
 * Prisma codes meaning the database could not be reached or dropped the connection: P1001 can't
 * reach, P1002 timed out, P1008 operation timed out, P1017 server closed the connection, P2024 no
 * pooled connection in time.
 */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
/** Socket errors of the driver when the server is down or went away. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** SQLSTATEs of a server shutting down or not accepting connections yet (57P01–57P03), and class 08. */
const SQLSTATE = /^(08...|57P0[123])$/;
/** What pg says when a connection ends under it or cannot be opened in time. */
const DRIVER_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Can't reach database server/i;

/**
 * True when `error` (or any error in its `cause` chain, including a Prisma driver-adapter cause) says
 * Postgres is unreachable rather than that the query was wrong: the caller should answer "unavailable,
 * retry shortly", not "internal error".
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    if (matches(current as Record<string, unknown>)) return true;
    const record = current as { cause?: unknown; meta?: { driverAdapterError?: unknown } };
    current = record.meta?.driverAdapterError ?? record.cause;
  }
  return false;
}

function matches(error: Record<string, unknown>): boolean {
  const code = typeof error.code === 'string' ? error.code : undefined;
  const originalCode = typeof error.originalCode === 'string' ? error.originalCode : undefined;
  const kind = typeof error.kind === 'string' ? error.kind : undefined;
  if (code && (PRISMA_CODES.has(code) || SOCKET_CODES.has(code) || SQLSTATE.test(code))) return true;
  if (originalCode && (SOCKET_CODES.has(originalCode) || SQLSTATE.test(originalCode))) return true;
  if (kind === 'DatabaseNotReachable' || kind === 'ConnectionClosed' || kind === 'SocketTimeout') return true;
  return typeof error.message === 'string' && DRIVER_MESSAGES.test(error.message);
}
