import type { Prisma } from '../generated/prisma/client.js';
import { type PrismaClient } from '../generated/prisma/client.js';
import { isRetryableTransactionError } from '../errors/prisma-errors.js';

/** The client handed to a transaction body: the full model API, no nested `$transaction`. */
export type TransactionClient = Prisma.TransactionClient;

export interface TransactionOptions {
  isolationLevel?: Prisma.TransactionIsolationLevel;
  /** Milliseconds the body may run before Prisma rolls it back (Prisma default: 5000). */
  timeoutMs?: number;
  /** Milliseconds to wait for a pooled connection (Prisma default: 2000). */
  maxWaitMs?: number;
  /** Extra attempts after a serialization failure or deadlock; the body must be safe to re-run. */
  retries?: number;
}

/**
 * Runs `body` in one interactive transaction: all its writes commit together or not at all.
 * Serialization failures and deadlocks are retried (only these: any other error propagates).
 */
export async function runInTransaction<T>(
  prisma: PrismaClient,
  body: (tx: TransactionClient) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  const retries = options.retries ?? 0;
  for (let attempt = 0; ; attempt++) {
    try {
      return await prisma.$transaction(body, {
        ...(options.isolationLevel !== undefined ? { isolationLevel: options.isolationLevel } : {}),
        ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
        ...(options.maxWaitMs !== undefined ? { maxWait: options.maxWaitMs } : {}),
      });
    } catch (error) {
      if (attempt >= retries || !isRetryableTransactionError(error)) throw error;
    }
  }
}
