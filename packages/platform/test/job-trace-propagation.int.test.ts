import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobDefinition } from '@agentry/contracts';
import { z } from 'zod';
import { createLogger, JobQueue } from '../src/index.js';
import { inTrace, startInMemoryTracing, type InMemoryTracing } from './in-memory-tracing.js';

const REDIS = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const KickSchema = z.object({ key: z.string(), failFirst: z.boolean().default(false) });
const Kick: JobDefinition<typeof KickSchema> = {
  queue: 'trace-kick',
  payload: KickSchema,
  attempts: 2,
  backoffMs: 10,
};

describe('trace context through BullMQ jobs', () => {
  const prefix = `agentry:test-trace-${Math.random().toString(36).slice(2, 10)}:bull`;
  const seen = new Map<string, Array<string | undefined>>();
  let tracing: InMemoryTracing;
  let jobs: JobQueue;

  beforeAll(() => {
    tracing = startInMemoryTracing();
    jobs = new JobQueue(REDIS, prefix, createLogger('trace-test', 'silent'));
    jobs.process(Kick, (payload) => {
      const attempts = seen.get(payload.key) ?? [];
      attempts.push(trace.getActiveSpan()?.spanContext().traceId);
      seen.set(payload.key, attempts);
      if (payload.failFirst && attempts.length === 1) return Promise.reject(new Error('first attempt fails'));
      return Promise.resolve();
    });
  });
  afterAll(async () => {
    await jobs?.close();
    await tracing?.stop();
    const redis = new Redis(REDIS);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.unlink(...keys);
    redis.disconnect();
  });

  const enqueueInSpan = () =>
    trace.getTracer('test').startActiveSpan('append events', async (span) => {
      try {
        await jobs.enqueue(Kick, { key: 'traced' });
        return span.spanContext();
      } finally {
        span.end();
      }
    });

  it('processes the job in the trace of whoever enqueued it, under the producer span', async () => {
    const caller = await enqueueInSpan();
    await expect.poll(() => seen.get('traced')).toEqual([caller.traceId]);

    const producer = await tracing.span('send trace-kick', SpanKind.PRODUCER, inTrace(caller.traceId));
    const consumer = await tracing.span('process trace-kick', SpanKind.CONSUMER, inTrace(caller.traceId));
    expect(producer.parentSpanContext?.spanId).toBe(caller.spanId);
    expect(consumer.parentSpanContext?.spanId).toBe(producer.spanContext().spanId);
    expect(consumer.attributes).toMatchObject({
      'messaging.system': 'bullmq',
      'messaging.destination.name': 'trace-kick',
    });
  });

  it('marks a failed attempt ERROR and keeps the retry in the same trace', async () => {
    const caller = await trace.getTracer('test').startActiveSpan('append events', async (span) => {
      await jobs.enqueue(Kick, { key: 'retried', failFirst: true });
      span.end();
      return span.spanContext();
    });
    await expect.poll(() => seen.get('retried')?.length, { timeout: 10_000 }).toBe(2);
    expect(seen.get('retried')).toEqual([caller.traceId, caller.traceId]);

    const failed = await tracing.span(
      'process trace-kick',
      SpanKind.CONSUMER,
      (s) => inTrace(caller.traceId)(s) && s.status.code === SpanStatusCode.ERROR,
    );
    expect(failed.status.message).toBe('first attempt fails');
    await tracing.span(
      'process trace-kick',
      SpanKind.CONSUMER,
      (s) => inTrace(caller.traceId)(s) && s.status.code === SpanStatusCode.UNSET,
    );
  });

  it('starts a new trace for a job that carries no context, or a damaged one, and still runs it', async () => {
    const queue = new Queue(Kick.queue, {
      connection: new Redis(REDIS, { maxRetriesPerRequest: null }),
      prefix,
    });
    try {
      await queue.add(Kick.queue, { key: 'bare' });
      await queue.add(Kick.queue, { key: 'damaged' }, { telemetry: { metadata: '{not json' } });
      await expect.poll(() => [seen.get('bare')?.length, seen.get('damaged')?.length]).toEqual([1, 1]);
    } finally {
      await queue.close();
    }
    for (const key of ['bare', 'damaged']) {
      const consumer = await tracing.span(
        'process trace-kick',
        SpanKind.CONSUMER,
        inTrace(seen.get(key)![0]!),
      );
      expect(consumer.parentSpanContext).toBeUndefined();
      expect(consumer.status.code).toBe(SpanStatusCode.UNSET);
    }
  });
});
