import { afterAll, describe, expect, it, vi } from 'vitest';
import { randomBytes } from 'node:crypto';
import { Jobs, type JobDefinition } from '@agentry/contracts';
import { createLogger, createRedis, JobQueue, redisKeyPrefix } from '@agentry/platform';
import { deleteRedisKeys, testRedisUrl } from '@agentry/testing';
import type { z } from 'zod';
import { SessionWakeups } from '../src/drain/session-wakeups.js';

/**
 * The interleaving that used to lose a wake-up, played deterministically on real Redis and BullMQ: a
 * drain has taken its last look at the inbox and is about to complete when new input is committed and
 * kicked. The drain below is a stand-in with the same contract as the real one (lower the flag, then
 * read the inbox); a latch holds it in the window between its last look and its completion.
 */
describe('session wake-ups against real Redis and BullMQ', () => {
  const env = `test-${randomBytes(6).toString('hex')}`;
  const redis = createRedis(testRedisUrl(), { keyPrefix: redisKeyPrefix(env) });
  const logger = createLogger('test', 'silent');
  const queues: JobQueue[] = [];
  const newQueue = () => {
    const queue = new JobQueue(testRedisUrl(), `agentry:${env}:bull:${queues.length}`, logger);
    queues.push(queue);
    return queue;
  };

  afterAll(async () => {
    await Promise.all(queues.map((q) => q.close()));
    await deleteRedisKeys(redis, redisKeyPrefix(env));
    redis.disconnect();
  });

  /** Input committed while the first drain sits between its last inbox read and its completion. */
  async function inputDuringTheEndOfADrain(
    kick: (queue: JobQueue) => Promise<void>,
    claim: () => Promise<void>,
    queue: JobQueue,
    lane: 'queue' | 'inline' = 'queue',
  ) {
    const inbox: string[] = [];
    const seen: string[] = [];
    let runs = 0;
    let lookedLast!: () => void;
    const lastLook = new Promise<void>((resolve) => (lookedLast = resolve));
    let letItComplete!: () => void;
    const window = new Promise<void>((resolve) => (letItComplete = resolve));
    const drain = async () => {
      await claim();
      seen.push(...inbox.splice(0));
      runs += 1;
      if (runs === 1) {
        lookedLast();
        await window;
      }
    };
    if (lane === 'inline') queue.runInline(Jobs.sessionDrain, drain, 4);
    else queue.process(Jobs.sessionDrain, drain);
    inbox.push('first');
    await kick(queue);
    await lastLook;
    inbox.push('second');
    await kick(queue);
    letItComplete();
    // The caller asserts on what was seen: a lost kick shows as a missing 'second'.
    await vi.waitFor(() => expect(seen).toContain('second'), { timeout: 3_000 }).catch(() => undefined);
    return seen;
  }

  it('never loses a kick that arrives while a drain is finishing', async () => {
    const queue = newQueue();
    const wakeups = new SessionWakeups(redis, queue);
    const seen = await inputDuringTheEndOfADrain(
      () => wakeups.kick('sesn_a', 'tnt_a'),
      () => wakeups.claim('sesn_a'),
      queue,
    );
    expect(seen).toEqual(['first', 'second']);
  });

  it('never loses it either when drains run in the replica that took the input', async () => {
    const queue = newQueue();
    const wakeups = new SessionWakeups(redis, queue);
    // An inline drain starts after the commit of the input it was kicked for: it lowers no flag.
    const seen = await inputDuringTheEndOfADrain(
      () => wakeups.kick('sesn_i', 'tnt_i'),
      () => Promise.resolve(),
      queue,
      'inline',
    );
    expect(seen).toEqual(['first', 'second']);
    expect(await queue.waitingCount(Jobs.sessionDrain)).toBe(0);
    expect(await redis.exists('wake:sesn_i')).toBe(0);
  });

  it('hands a kick to the shared queue when this replica has no room, and a failed inline drain too', async () => {
    const queue = newQueue();
    const wakeups = new SessionWakeups(redis, queue);
    let release!: () => void;
    const busy = new Promise<void>((resolve) => (release = resolve));
    const ran: string[] = [];
    queue.runInline(
      Jobs.sessionDrain,
      async (job) => {
        ran.push(job.sessionId);
        if (job.sessionId === 'sesn_fail') throw new Error('database went away');
        await busy;
      },
      1,
    );
    await wakeups.kick('sesn_d1', 'tnt_d');
    await wakeups.kick('sesn_d2', 'tnt_d');
    expect(ran).toEqual(['sesn_d1']);
    expect(await queue.waitingCount(Jobs.sessionDrain)).toBe(1);
    release();
    await new Promise((r) => setImmediate(r));
    await wakeups.kick('sesn_fail', 'tnt_d');
    expect(ran).toEqual(['sesn_d1', 'sesn_fail']);
    await expect.poll(() => queue.waitingCount(Jobs.sessionDrain)).toBe(2);
  });

  it('coalesces kicks while a drain is still waiting to start', async () => {
    const queue = newQueue();
    const wakeups = new SessionWakeups(redis, queue);
    for (let i = 0; i < 5; i += 1) await wakeups.kick('sesn_b', 'tnt_b');
    expect(await queue.waitingCount(Jobs.sessionDrain)).toBe(1);
    await wakeups.claim('sesn_b');
    await wakeups.kick('sesn_b', 'tnt_b');
    expect(await queue.waitingCount(Jobs.sessionDrain)).toBe(2);
  });

  it('shows why: coalescing on a BullMQ job id drops that kick', async () => {
    const byJobId: JobDefinition<z.ZodType> = {
      ...Jobs.sessionDrain,
      dedupeKey: (p: unknown) => `drain-${(p as { sessionId: string }).sessionId}`,
    };
    const seen = await inputDuringTheEndOfADrain(
      (queue) => queue.enqueue(byJobId, { sessionId: 'sesn_c', tenantId: 'tnt_c', reason: 'inbound' }),
      () => Promise.resolve(),
      newQueue(),
    );
    expect(seen).toEqual(['first']);
  });
});
