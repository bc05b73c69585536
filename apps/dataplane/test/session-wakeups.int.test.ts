import { afterAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { Jobs, type JobDefinition } from '@agentry/contracts';
import { createLogger, createRedis, JobQueue, redisKeyPrefix } from '@agentry/platform';
import { deleteRedisKeys, testRedisUrl } from '@agentry/testing';
import type { z } from 'zod';
import { SessionWakeups } from '../src/turns/session-wakeups.js';

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
  ) {
    const inbox: string[] = [];
    const seen: string[] = [];
    let runs = 0;
    let lookedLast!: () => void;
    const lastLook = new Promise<void>((resolve) => (lookedLast = resolve));
    let letItComplete!: () => void;
    const window = new Promise<void>((resolve) => (letItComplete = resolve));
    queue.process(Jobs.sessionDrain, async () => {
      await claim();
      seen.push(...inbox.splice(0));
      runs += 1;
      if (runs === 1) {
        lookedLast();
        await window;
      }
    });
    inbox.push('first');
    await kick(queue);
    await lastLook;
    inbox.push('second');
    await kick(queue);
    letItComplete();
    const deadline = Date.now() + 3_000;
    while (!seen.includes('second') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
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
      async () => undefined,
      newQueue(),
    );
    expect(seen).toEqual(['first']);
  });
});
