import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '@agentry/contracts';
import { createRedis } from '@agentry/platform';
import { deleteRedisKeys, testRedisPrefix, testRedisUrl } from '@agentry/testing';
import { IdempotencyStore } from './idempotency-store.js';

describe('IdempotencyStore on Redis', () => {
  const prefix = testRedisPrefix();
  const redis = createRedis(testRedisUrl(), { keyPrefix: prefix });
  const admin = createRedis(testRedisUrl());
  const store = new IdempotencyStore(redis, { ttlMs: 60_000, claimMs: 300 });
  let n = 0;
  const freshKey = () => `t:${(n += 1)}`;

  beforeAll(async () => {
    await redis.ping();
  });
  afterAll(async () => {
    await deleteRedisKeys(admin, prefix);
    await Promise.all([redis.quit(), admin.quit()]);
  });

  it('lets exactly one of many concurrent requests start; the rest are told it is in progress', async () => {
    const key = freshKey();
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => store.begin(key, 'fp')));
    const started = results.filter((r) => r.status === 'fulfilled' && r.value.state === 'started');
    const refused = results.filter((r) => r.status === 'rejected');
    expect(started).toHaveLength(1);
    expect(refused).toHaveLength(9);
    for (const r of refused) {
      expect(
        AppError.is(r.reason, 'IDEMPOTENCY_CONFLICT') && /in progress/.test((r.reason as Error).message),
      ).toBe(true);
    }
  });

  it('replays the stored response for the same request and refuses a different one', async () => {
    const key = freshKey();
    expect((await store.begin(key, 'fp')).state).toBe('started');
    await store.complete(key, 'fp', 200, { id: 'agent_1' });
    expect(await store.begin(key, 'fp')).toEqual({
      state: 'replay',
      statusCode: 200,
      body: { id: 'agent_1' },
    });
    await expect(store.begin(key, 'other')).rejects.toSatisfy(
      (e) => AppError.is(e, 'IDEMPOTENCY_CONFLICT') && /different request/.test((e as Error).message),
    );
    expect(await redis.pttl(key)).toBeGreaterThan(50_000);
  });

  it('frees a key on release, but a stale claim never releases a newer one', async () => {
    const key = freshKey();
    const first = await store.begin(key, 'fp');
    if (first.state !== 'started') throw new Error('expected a fresh claim');
    await store.release(key, 'fp', first.claim);
    const second = await store.begin(key, 'fp');
    expect(second.state).toBe('started');
    await store.release(key, 'fp', first.claim);
    await expect(store.begin(key, 'fp')).rejects.toSatisfy((e) => AppError.is(e, 'IDEMPOTENCY_CONFLICT'));
  });

  it('lets a retry take over a claim whose request never finished', async () => {
    const key = freshKey();
    expect((await store.begin(key, 'fp')).state).toBe('started');
    // Taken over once the claim's 300 ms Redis TTL runs out; until then it is refused as in progress.
    await vi.waitFor(async () => expect((await store.begin(key, 'fp')).state).toBe('started'), {
      timeout: 5_000,
    });
  });
});
