import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/** The Redis server tests use: `REDIS_URL`, else the local one. */
export function testRedisUrl(): string {
  return process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
}

/** A key prefix no other test file uses: `agentry:test-<random>:`. */
export function testRedisPrefix(): string {
  return `agentry:test-${randomBytes(6).toString('hex')}:`;
}

/**
 * Deletes every key starting with `prefix` (SCAN, so the server is never blocked) and returns how
 * many were deleted. Call it in `afterAll` with the prefix from `testRedisPrefix()`.
 */
export async function deleteRedisKeys(redis: Redis, prefix: string): Promise<number> {
  if (prefix.length === 0) throw new Error('refusing to delete every key: empty prefix');
  const pattern = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
  let cursor = '0';
  let deleted = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) deleted += await redis.unlink(...keys);
  } while (cursor !== '0');
  return deleted;
}
