import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client.js';
import { CONNECT_TIMEOUT_MS } from './sql-pool.factory.js';

export interface PrismaClientOptions {
  /** Most pooled connections this client opens (pg default: 10). */
  maxConnections?: number;
  /** Milliseconds an idle pooled connection is kept open. */
  idleTimeoutMs?: number;
  /** Called with every statement the client sends (tests read the plans of a service's queries). */
  onQuery?: (query: { sql: string; params: unknown[] }) => void;
}

/**
 * A Prisma client over the pg driver adapter: no native query engine, so it runs offline and on
 * any Node version the platform supports. The caller owns it and must `$disconnect()` it.
 */
export function createPrismaClient(databaseUrl: string, options: PrismaClientOptions = {}): PrismaClient {
  const adapter = new PrismaPg({
    connectionString: databaseUrl,
    // While Postgres is unreachable a query fails after this long instead of waiting for a connection forever.
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    ...(options.maxConnections !== undefined ? { max: options.maxConnections } : {}),
    ...(options.idleTimeoutMs !== undefined ? { idleTimeoutMillis: options.idleTimeoutMs } : {}),
  });
  if (!options.onQuery) return new PrismaClient({ adapter });
  const onQuery = options.onQuery;
  const client = new PrismaClient({ adapter, log: [{ emit: 'event', level: 'query' }] });
  client.$on('query', (event) =>
    onQuery({ sql: event.query, params: JSON.parse(event.params) as unknown[] }),
  );
  return client;
}
