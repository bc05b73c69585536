import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, type JobDefinition } from '@agentry/contracts';
import { z } from 'zod';
import { createLogger, JobQueue } from '../src/index.js';

const REDIS = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const FailSchema = z.object({ key: z.string(), retryable: z.boolean() });
const Fail: JobDefinition<typeof FailSchema> = {
  queue: 'failing',
  payload: FailSchema,
  attempts: 3,
  backoffMs: 10,
};

describe('a job that fails', () => {
  const prefix = `agentry:test-failure-${Math.random().toString(36).slice(2, 10)}:bull`;
  const runs = new Map<string, number>();
  let jobs: JobQueue;
  let queue: Queue;

  beforeAll(() => {
    jobs = new JobQueue(REDIS, prefix, createLogger('failure-test', 'silent'));
    jobs.process(Fail, (payload) => {
      runs.set(payload.key, (runs.get(payload.key) ?? 0) + 1);
      return Promise.reject(
        payload.retryable
          ? new AppError('UNAVAILABLE', 'the model provider is away', { retryable: true })
          : new AppError('NOT_FOUND', 'the session is gone'),
      );
    });
    queue = new Queue(Fail.queue, { connection: new Redis(REDIS, { maxRetriesPerRequest: null }), prefix });
  });
  afterAll(async () => {
    await jobs?.close();
    await queue?.close();
    const redis = new Redis(REDIS);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.unlink(...keys);
    redis.disconnect();
  });

  /** Runs of the job once BullMQ has given up on it. */
  async function runsWhenFailed(key: string): Promise<number> {
    await jobs.enqueue(Fail, { key, retryable: key === 'retryable' }, 0, key);
    await expect
      .poll(async () => (await queue.getFailed()).map((job) => job.id), { timeout: 10_000 })
      .toContain(key);
    return runs.get(key) ?? 0;
  }

  it('with a non-retryable error runs once, however many attempts the catalog allows', async () => {
    expect(await runsWhenFailed('final')).toBe(1);
    const failed = (await queue.getFailed()).find((job) => job.id === 'final');
    expect(failed?.failedReason).toBe('NOT_FOUND: the session is gone');
  });

  it('with a retryable error is retried up to the catalog’s attempts', async () => {
    expect(await runsWhenFailed('retryable')).toBe(Fail.attempts);
  });
});
