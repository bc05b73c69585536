import { Controller, Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rpcSubject } from '@agentry/contracts';
import { z } from 'zod';
import { createLogger, PrefixedClientNats, PrefixedServerNats, RpcClient, RpcHandler } from '../src/index.js';

const Read = rpcSubject(
  'stall.read',
  z.object({ n: z.number() }),
  z.object({ n: z.number(), from: z.string() }),
  undefined,
  { idempotent: true },
);

const percentileOf = (samples: number[], p: number) =>
  [...samples].sort((a, b) => a - b)[Math.max(0, Math.ceil((p / 100) * samples.length) - 1)]!;

/** A replica whose handler stops answering while `stalled` (what a frozen process looks like to NATS). */
function replicaModule(from: string, state: { stalled: boolean }) {
  @Controller()
  class ReadHandler {
    @RpcHandler(Read)
    async read(request: { n: number }) {
      if (state.stalled) await new Promise(() => undefined);
      return { n: request.n, from };
    }
  }
  @Module({ controllers: [ReadHandler] })
  class ReplicaModule {}
  return ReplicaModule;
}

/**
 * Two replicas share a queue group; one stalls with requests still routed to it. An idempotent read goes
 * again to the other replica after a moment instead of waiting out its timeout there.
 */
describe('an idempotent request while one of two replicas stalls', () => {
  const prefix = `stall${Math.random().toString(36).slice(2, 8)}.`;
  const apps: INestApplication[] = [];
  const frozen = { stalled: false };
  let rpc: RpcClient;

  async function replica(from: string, state: { stalled: boolean }) {
    const app = await NestFactory.createMicroservice(replicaModule(from, state), {
      strategy: new PrefixedServerNats(
        { servers: ['nats://127.0.0.1:4222'], queue: 'stall', replicaId: `replica-${from}` },
        prefix,
        createLogger('stall-test', 'silent'),
      ),
      logger: false,
    });
    await app.listen();
    apps.push(app as unknown as INestApplication);
  }

  beforeAll(async () => {
    await replica('a', { stalled: false });
    await replica('b', frozen);
    const proxy = new PrefixedClientNats({ servers: ['nats://127.0.0.1:4222'] }, prefix);
    await proxy.connect();
    rpc = new RpcClient(proxy, 15_000);
  });

  afterAll(async () => {
    await rpc?.close();
    await Promise.all(apps.map((a) => a.close()));
  });

  it('answers every read within a second, from the replica that still answers', async () => {
    // Both replicas answer reads before the stall (the caller hears their beats within a second).
    const warm = new Set<string>();
    await vi.waitFor(
      async () => {
        warm.add((await rpc.request(Read, { n: 0 })).from);
        expect(warm).toEqual(new Set(['a', 'b']));
      },
      { timeout: 5_000, interval: 50 },
    );

    frozen.stalled = true;
    const latencies: number[] = [];
    for (let n = 0; n < 60; n += 1) {
      const started = performance.now();
      const reply = await rpc.request(Read, { n });
      latencies.push(performance.now() - started);
      expect(reply).toEqual({ n, from: 'a' });
    }
    const p99 = percentileOf(latencies, 99);
    console.log(
      `stalled replica: 60 reads, p50 ${percentileOf(latencies, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`,
    );
    expect(p99).toBeLessThanOrEqual(1_000);
    // Once passed over, the stalled replica holds no more reads: only the first few waited for the hedge.
    expect(latencies.filter((ms) => ms >= 250).length).toBeLessThanOrEqual(3);
  });
});
