import pg from 'pg';

/**
 * A plain pg pool for code that speaks SQL through a tiny port rather than Prisma (the Postgres-backed
 * workspace). The caller owns it and must `end()` it.
 */
export function createSqlPool(databaseUrl: string, maxConnections = 5): pg.Pool {
  return new pg.Pool({ connectionString: databaseUrl, max: maxConnections });
}
