import { Controller, Module, UseInterceptors, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern } from '@nestjs/microservices';
import { connect, headers, type NatsConnection } from '@nats-io/transport-node';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, rpcSubject } from '@agentry/contracts';
import { z } from 'zod';
import {
  createLogger,
  LOGGER,
  NatsBus,
  PrefixedClientNats,
  PrefixedServerNats,
  RpcClient,
  RpcEnvelopeInterceptor,
} from '../src/index.js';
import { inTrace, startInMemoryTracing, type InMemoryTracing } from './in-memory-tracing.js';

const NATS = 'nats://127.0.0.1:4222';
const TraceSeen = z.object({ traceId: z.string().nullable() });
const WhoAmI = rpcSubject('test.trace.whoami', z.object({ v: z.literal(1) }), TraceSeen);
const Missing = rpcSubject('test.trace.missing', z.object({ id: z.string() }), TraceSeen);

/** Answers with the trace id the handler runs under: what its log lines would carry. */
@Controller()
@UseInterceptors(RpcEnvelopeInterceptor)
class TraceHandler {
  @MessagePattern(WhoAmI.subject)
  whoami() {
    return { traceId: trace.getActiveSpan()?.spanContext().traceId ?? null };
  }

  @MessagePattern(Missing.subject)
  missing(payload: { id: string }) {
    throw new AppError('NOT_FOUND', `Thing ${payload.id} not found`);
  }
}

@Module({
  controllers: [TraceHandler],
  providers: [{ provide: LOGGER, useValue: createLogger('trace-test', 'silent') }, RpcEnvelopeInterceptor],
})
class TraceModule {}

describe('trace context over NATS', () => {
  const prefix = `trace${Math.random().toString(36).slice(2, 8)}.`;
  let tracing: InMemoryTracing;
  let app: INestMicroservice;
  let rpc: RpcClient;
  let raw: NatsConnection;
  let bus: NatsBus;

  beforeAll(async () => {
    tracing = startInMemoryTracing();
    app = await NestFactory.createMicroservice(TraceModule, {
      strategy: new PrefixedServerNats(
        { servers: [NATS], queue: 'trace' },
        prefix,
        createLogger('trace-test', 'silent'),
      ),
      logger: false,
    });
    await app.listen();
    const proxy = new PrefixedClientNats({ servers: [NATS] }, prefix);
    await proxy.connect();
    rpc = new RpcClient(proxy, 2_000);
    raw = await connect({ servers: [NATS] });
    bus = await NatsBus.connect(NATS, prefix, 'trace-test-bus');
  });
  afterAll(async () => {
    await rpc?.close();
    await app?.close();
    await raw?.close();
    await bus?.close();
    await tracing?.stop();
  });

  const inActiveSpan = <T>(work: (traceId: string, spanId: string) => Promise<T>) =>
    trace.getTracer('test').startActiveSpan('caller', async (span) => {
      try {
        return await work(span.spanContext().traceId, span.spanContext().spanId);
      } finally {
        span.end();
      }
    });

  it('runs the handler in the caller’s trace, under the client span', async () => {
    const { seen, traceId, callerId } = await inActiveSpan(async (traceId, callerId) => ({
      seen: await rpc.request(WhoAmI, { v: 1 }),
      traceId,
      callerId,
    }));
    expect(seen.traceId).toBe(traceId);

    const client = await tracing.span(WhoAmI.subject, SpanKind.CLIENT, inTrace(traceId));
    const server = await tracing.span(WhoAmI.subject, SpanKind.SERVER, inTrace(traceId));
    expect(client.parentSpanContext?.spanId).toBe(callerId);
    expect(server.parentSpanContext?.spanId).toBe(client.spanContext().spanId);
    expect(server.parentSpanContext?.isRemote).toBe(true);
    expect(server.attributes).toMatchObject({
      'messaging.system': 'nats',
      'messaging.destination.name': WhoAmI.subject,
    });
    expect(server.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('marks both sides ERROR when the handler fails, and the caller still gets the typed error', async () => {
    const { traceId, failure } = await inActiveSpan(async (traceId) => ({
      traceId,
      failure: await rpc.request(Missing, { id: 'x1' }).catch((error: unknown) => error),
    }));
    expect(AppError.is(failure, 'NOT_FOUND')).toBe(true);

    const server = await tracing.span(Missing.subject, SpanKind.SERVER, inTrace(traceId));
    const client = await tracing.span(Missing.subject, SpanKind.CLIENT, inTrace(traceId));
    for (const span of [server, client]) {
      expect(span.status).toMatchObject({ code: SpanStatusCode.ERROR, message: 'Thing x1 not found' });
      expect(span.attributes['error.type']).toBe('NOT_FOUND');
    }
  });

  it('marks the client span ERROR when nobody answers', async () => {
    const lonely = new PrefixedClientNats({ servers: [NATS] }, `${prefix}nobody.`);
    await lonely.connect();
    const unanswered = new RpcClient(lonely, 300);
    try {
      const { traceId, failure } = await inActiveSpan(async (traceId) => ({
        traceId,
        failure: await unanswered.request(WhoAmI, { v: 1 }).catch((error: unknown) => error),
      }));
      expect(AppError.is(failure, 'UNAVAILABLE')).toBe(true);
      const client = await tracing.span(WhoAmI.subject, SpanKind.CLIENT, inTrace(traceId));
      expect(client.status.code).toBe(SpanStatusCode.ERROR);
      expect(client.attributes['error.type']).toBe('UNAVAILABLE');
    } finally {
      await unanswered.close();
    }
  });

  it('answers a request without trace headers (or with a broken one) under a new root trace', async () => {
    const request = (id: string) =>
      new TextEncoder().encode(JSON.stringify({ pattern: WhoAmI.subject, data: { v: 1 }, id }));
    const broken = headers();
    broken.set('traceparent', 'not-a-traceparent');
    for (const [id, options] of [
      ['plain', {}],
      ['broken', { headers: broken }],
    ] as const) {
      const reply = await raw.request(prefix + WhoAmI.subject, request(id), { timeout: 2_000, ...options });
      const body = reply.json<{ response: { ok: boolean; data: { traceId: string } } }>();
      expect(body.response.ok).toBe(true);
      const server = await tracing.span(WhoAmI.subject, SpanKind.SERVER, inTrace(body.response.data.traceId));
      expect(server.parentSpanContext).toBeUndefined();
    }
  });

  it('continues the publisher’s trace in each subscriber, and starts one when the publisher had none', async () => {
    const received: Array<string | undefined> = [];
    const unsubscribe = bus.subscribe('evt.sesn_1', () =>
      received.push(trace.getActiveSpan()?.spanContext().traceId),
    );
    try {
      await bus.flush();
      const traceId = await inActiveSpan((traceId) => {
        bus.publish('evt.sesn_1', { seq: 1 });
        return Promise.resolve(traceId);
      });
      bus.publish('evt.sesn_1', { seq: 2 });
      await expect.poll(() => received.length).toBe(2);
      expect(received[0]).toBe(traceId);
      expect(received[1]).toMatch(/^[0-9a-f]{32}$/);
      expect(received[1]).not.toBe(traceId);

      const consumer = await tracing.span('process evt', SpanKind.CONSUMER, inTrace(traceId));
      expect(consumer.attributes).toMatchObject({
        'messaging.system': 'nats',
        'messaging.destination.name': 'evt.sesn_1',
      });
      const orphan = await tracing.span('process evt', SpanKind.CONSUMER, inTrace(received[1]!));
      expect(orphan.parentSpanContext).toBeUndefined();
    } finally {
      unsubscribe();
    }
  });
});
