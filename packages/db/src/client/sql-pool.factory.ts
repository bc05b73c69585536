import pg from 'pg';

export interface SqlPoolOptions {
  /** Most pooled connections (default 5). */
  maxConnections?: number;
  /** Called when an idle pooled connection fails (the server restarted or went away). */
  onIdleError?: (error: Error) => void;
}

/** Milliseconds to wait for a new connection: while Postgres is unreachable, queries fail instead of hanging. */
export const CONNECT_TIMEOUT_MS = 5_000;

/**
 * A plain pg pool for code that speaks SQL through a tiny port rather than Prisma (the Postgres-backed
 * workspace). The caller owns it and must `end()` it.
 *
 * An idle connection that dies (Postgres stopped or restarted) makes the pool emit `error`; without a
 * listener that would crash the process. The pool has already dropped the connection by then and the
 * next query opens a new one, so the error is only reported.
 */
export function createSqlPool(databaseUrl: string, options: SqlPoolOptions | number = {}): pg.Pool {
  const { maxConnections = 5, onIdleError } =
    typeof options === 'number' ? { maxConnections: options } : options;
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: maxConnections,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  pool.on('error', (error) => onIdleError?.(error));
  return pool;
}
