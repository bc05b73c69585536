import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteRedisKeys, testRedisPrefix, testRedisUrl } from './test-redis-prefix.js';

let redis: Redis;
const mine = testRedisPrefix();
const other = testRedisPrefix();

beforeAll(() => {
  redis = new Redis(testRedisUrl(), { lazyConnect: false, maxRetriesPerRequest: 1 });
});

afterAll(async () => {
  await deleteRedisKeys(redis, mine);
  await deleteRedisKeys(redis, other);
  redis.disconnect();
});

describe('testRedisPrefix', () => {
  it('is unique per call and shaped agentry:test-<random>:', () => {
    expect(mine).toMatch(/^agentry:test-[0-9a-f]{12}:$/);
    expect(mine).not.toBe(other);
  });

  it('cleanup deletes every key under the prefix and nothing else', async () => {
    const keys = Array.from({ length: 1_200 }, (_, i) => `${mine}k${i}`);
    const pipeline = redis.pipeline();
    for (const key of keys) pipeline.set(key, '1');
    pipeline.set(`${other}keep`, '1');
    await pipeline.exec();

    expect(await deleteRedisKeys(redis, mine)).toBe(1_200);
    expect(await redis.exists(keys[0]!, keys[1_199]!)).toBe(0);
    expect(await redis.get(`${other}keep`)).toBe('1');
  });

  it('refuses an empty prefix', async () => {
    await expect(deleteRedisKeys(redis, '')).rejects.toThrow(/empty prefix/);
  });
});
