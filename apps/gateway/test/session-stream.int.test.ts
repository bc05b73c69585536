import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PubSubjects, type Actor, type EventPage, type StoredEvent } from '@agentry/contracts';
import { createLogger, NatsBus, SystemClock } from '@agentry/platform';
import { SseClient, testSubjectPrefix } from '@agentry/testing';
import { GatewayEnvSchema } from '../src/config/env.js';
import type { SessionEventLog } from '../src/streaming/session-event-log.js';
import { SseSlots } from '../src/rate-limit/sse-slots.js';
import { SessionStreamService } from '../src/streaming/session-stream.service.js';
import { NatsInterceptingProxy } from './nats-intercepting-proxy.js';

const SESSION = 'sesn_fanout';
const CLIENTS = 50;
const actor: Actor = { tenantId: 't1', namespaceId: 'ns1', userId: 'u1', apiKeyId: null, role: 'member' };
const message = (seq: number): StoredEvent => ({
  seq,
  event: {
    id: `sevt_${seq}`,
    type: 'agent.message',
    processed_at: '2026-12-01T00:00:00.000Z',
    created_at: '2026-12-01T00:00:00.000Z',
    content: [{ type: 'text', text: `m${seq}` }],
  },
});

/** The session's log, in memory: what the dataplane would have committed. */
class MemoryLog {
  readonly events: StoredEvent[] = [];
  reads = 0;
  latestSeq(): Promise<number> {
    this.reads += 1;
    return Promise.resolve(this.events.at(-1)?.seq ?? 0);
  }
  page(
    _actor: Actor,
    _sessionId: string,
    afterSeq: number,
    limit: number,
    beforeSeq?: number,
  ): Promise<EventPage> {
    this.reads += 1;
    const data = this.events.filter((e) => e.seq > afterSeq && (!beforeSeq || e.seq < beforeSeq));
    return Promise.resolve({ data: data.slice(0, limit), hasMore: data.length > limit });
  }
}

/**
 * The stream service against real NATS (through a proxy that can cut the connection) and a real HTTP
 * server: one subscription per session whatever the number of clients, and a reconnect re-reads the log.
 */
describe('gateway: session streams share one NATS subscription and re-read the log after a reconnect', () => {
  const prefix = testSubjectPrefix();
  const log = new MemoryLog();
  let proxy: NatsInterceptingProxy;
  let gatewayBus: NatsBus;
  let dataplaneBus: NatsBus;
  let streams: SessionStreamService;
  let server: Server;
  let subscriptions = 0;
  const unsubscribed: string[] = [];
  let url = '';

  beforeAll(async () => {
    proxy = await NatsInterceptingProxy.start();
    gatewayBus = await NatsBus.connect(proxy.url, prefix, 'gateway-bus');
    dataplaneBus = await NatsBus.connect('nats://127.0.0.1:4222', prefix, 'dataplane-bus');
    const subscribe = gatewayBus.subscribe.bind(gatewayBus);
    gatewayBus.subscribe = (...args) => {
      subscriptions += 1;
      const unsubscribe = subscribe(...args);
      return () => {
        unsubscribed.push(String(args[0]));
        unsubscribe();
      };
    };
    // The quiet re-check is pushed out of the way: only the reconnect may recover the lost event here.
    const config = GatewayEnvSchema.parse({
      AGENTRY_JWT_SECRET: 'x'.repeat(32),
      AGENTRY_SSE_RECHECK_MS: '60000',
      PORT: '0',
    });
    const logger = createLogger('gateway-test', 'silent');
    const clock = new SystemClock();
    // No cap on open streams here (it never touches Redis then): this file is about delivery.
    const slots = new SseSlots(null as never, { maxPerPrincipal: 0, leaseMs: 60_000 }, logger, clock);
    streams = new SessionStreamService(
      gatewayBus,
      log as unknown as SessionEventLog,
      config,
      logger,
      slots,
      clock,
    );
    streams.onModuleInit();
    server = createServer((request, response: ServerResponse) => {
      const target = new URL(request.url ?? '/', 'http://x');
      const after = target.searchParams.get('after');
      void streams.run(
        actor,
        target.pathname.slice(1) || SESSION,
        after === null ? null : Number(after),
        response,
        'v1',
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    streams.onApplicationShutdown();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await Promise.all([gatewayBus.close(), dataplaneBus.close()]);
    await proxy.stop();
  });

  it(`fans one NATS message out to ${CLIENTS} clients through a single subscription`, async () => {
    log.events.push(message(1));
    const clients = await Promise.all(Array.from({ length: CLIENTS }, () => SseClient.open(url)));
    const resumed = await SseClient.open(`${url}?after=0`);
    expect(subscriptions).toBe(1);
    log.events.push(message(2));
    dataplaneBus.publish(PubSubjects.sessionEvents(SESSION), message(2));
    await Promise.all(clients.map((c) => c.waitFor((frames) => frames.length === 1, 5_000)));
    await resumed.waitFor((frames) => frames.length === 2, 5_000);
    expect(new Set(clients.map((c) => JSON.stringify(c.frames))).size).toBe(1);
    const [frame] = clients[0]!.frames;
    expect({ ...frame, data: JSON.parse(frame!.data) as unknown }).toEqual({
      id: '2',
      event: 'agent.message',
      data: message(2).event,
    });
    expect(resumed.frames.map((f) => f.id)).toEqual(['1', '2']);
    await Promise.all([...clients, resumed].map((c) => c.close()));
  });

  it('sends an event whose NATS message was lost as soon as the connection comes back', async () => {
    const client = await SseClient.open(url);
    const start = log.events.length;
    log.events.push(message(start + 1));
    // Committed while this gateway was cut off: its message never arrives.
    expect(proxy.cut('gateway-bus')).toBe(1);
    await client.waitFor((frames) => frames.some((f) => f.id === String(start + 1)), 10_000);
    await client.close();
  });

  it('closes the subscription when the last client of a session leaves', async () => {
    const before = subscriptions;
    const client = await SseClient.open(`${url}sesn_short_lived`);
    await client.close();
    // The gateway notices the client left and drops the session's subscription.
    await vi.waitFor(() => expect(unsubscribed.some((s) => s.includes('sesn_short_lived'))).toBe(true));
    const again = await SseClient.open(`${url}sesn_short_lived`);
    expect(subscriptions).toBe(before + 2);
    await again.close();
  });
});
