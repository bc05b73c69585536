import { Redis } from 'ioredis';

/** Key prefix of one installation: `agentry:{env}:`; tests pass a unique env so they never collide. */
export function redisKeyPrefix(env: string): string {
  return `agentry:${env}:`;
}

export function createRedis(
  url: string,
  options: { keyPrefix?: string; forQueue?: boolean; offlineQueue?: boolean } = {},
): Redis {
  return new Redis(url, {
    ...(options.keyPrefix ? { keyPrefix: options.keyPrefix } : {}),
    // BullMQ workers block on Redis and must never give up on a request.
    maxRetriesPerRequest: options.forQueue ? null : 3,
    lazyConnect: false,
    // Off for callers that must answer at once while Redis is away rather than wait for it.
    ...(options.offlineQueue === false ? { enableOfflineQueue: false } : {}),
  });
}
