import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DataplaneSubjects as D,
  ID_PREFIXES,
  newId,
  PubSubjects,
  StoredEventSchema,
  type Actor,
} from '@agentry/contracts';
import { startDataplane, type DataplaneTestApp } from './dataplane-test-app.js';

const SESSIONS = 200;
const MESSAGES_PER_SESSION = 10;
/** Each session's first turn warms the process (JIT, pool connections, prepared statements) and is not counted. */
const WARM_UP_MESSAGES = 1;
/**
 * Think time between a session's idle and its next message: about 60 messages a second offered, well
 * below what one dataplane drains, so a pickup measures the wake-up path rather than a queue.
 */
const THINK_MS = { min: 1_500, max: 5_000 };

/**
 * Thousands of messages over a hundred and more sessions, with random timing, on the real dataplane
 * (drain worker, BullMQ, Postgres, NATS) and no reconciler at all: a lost wake-up is never rescued, so
 * it shows up as a session that stops answering. Pickup is the time from the message's commit
 * to the commit of its turn's `session.status_running`, as the log's timestamps record them (the
 * arrival of both on NATS is printed too).
 */
describe('wake-ups under concurrent load', () => {
  let dp: DataplaneTestApp;
  let actor: Actor;
  const sessionIds: string[] = [];

  beforeAll(async () => {
    dp = await startDataplane({ AGENTRY_LOG_LEVEL: 'error' });
    const tenantId = newId(ID_PREFIXES.tenant);
    const namespaceId = newId(ID_PREFIXES.namespace);
    const agentId = newId(ID_PREFIXES.agent);
    const environmentId = newId(ID_PREFIXES.environment);
    const prisma = dp.db.prisma;
    await prisma.tenant.create({ data: { id: tenantId, name: 't', slug: tenantId.toLowerCase() } });
    await prisma.namespace.create({ data: { id: namespaceId, tenantId, name: 'n', slug: 'n' } });
    await prisma.agent.create({ data: { id: agentId, tenantId, namespaceId, name: 'a' } });
    await prisma.agentVersion.create({
      data: { id: `${agentId}@1`, tenantId, agentId, version: 1, name: 'a', model: { id: 'scripted' } },
    });
    await prisma.environment.create({
      data: { id: environmentId, tenantId, namespaceId, name: 'e', type: 'remote' },
    });
    const agent = {
      type: 'agent',
      id: agentId,
      version: 1,
      name: 'a',
      description: null,
      system: null,
      model: { id: 'scripted' },
      tools: [],
      mcp_servers: [],
      skills: [],
      multiagent: null,
    };
    const spec = { agent, environment: { id: environmentId, type: 'remote', config: { type: 'remote' } } };
    for (let i = 0; i < SESSIONS; i += 1) sessionIds.push(newId(ID_PREFIXES.session));
    await prisma.session.createMany({
      data: sessionIds.map((id) => ({
        id,
        tenantId,
        namespaceId,
        agentId,
        agentVersion: 1,
        environmentId,
        spec,
      })),
    });
    actor = { tenantId, namespaceId, userId: null, apiKeyId: null, role: 'admin' };
  });
  afterAll(async () => {
    await dp?.close();
  });

  it('picks every message up at once, however the kicks and drains interleave', async () => {
    const pickups: number[] = [];
    const stuck: string[] = [];
    await Promise.all(
      sessionIds.map(async (sessionId) => {
        let messageAt = 0;
        let turns = 0;
        let wake: ((outcome: 'idle' | 'error') => void) | undefined;
        const unsubscribe = dp.bus.subscribe(PubSubjects.sessionEvents(sessionId), (raw) => {
          const parsed = StoredEventSchema.safeParse(raw);
          if (!parsed.success) return;
          const type = parsed.data.event.type;
          if (type === 'user.message') messageAt = performance.now();
          else if (type === 'session.status_running' && (turns += 1) > WARM_UP_MESSAGES)
            pickups.push(performance.now() - messageAt);
          else if (type === 'session.status_idle') wake?.('idle');
          else if (type === 'session.error') wake?.('error');
        });
        await dp.bus.flush();
        try {
          for (let i = 0; i < WARM_UP_MESSAGES + MESSAGES_PER_SESSION; i += 1) {
            await new Promise((r) =>
              setTimeout(r, THINK_MS.min + Math.random() * (THINK_MS.max - THINK_MS.min)),
            );
            const idle = new Promise<'idle' | 'error' | 'timeout'>((resolve) => {
              wake = resolve;
              setTimeout(() => resolve('timeout'), 10_000);
            });
            await dp.rpc.request(D.appendEvents, {
              actor,
              sessionId,
              events: [{ type: 'user.message', content: [{ type: 'text', text: `m${i}` }] }],
            });
            const outcome = await idle;
            if (outcome !== 'idle') {
              stuck.push(`${sessionId} message ${i}: ${outcome}`);
              return;
            }
          }
        } finally {
          unsubscribe();
        }
      }),
    );
    // Pickup as the log records it: the commit of each message to the commit of the turn it started.
    const rows = await dp.db.prisma.sessionEvent.findMany({
      where: { sessionId: { in: sessionIds }, type: { in: ['user.message', 'session.status_running'] } },
      orderBy: [{ sessionId: 'asc' }, { seq: 'asc' }],
      select: { sessionId: true, type: true, createdAt: true },
    });
    const committed: number[] = [];
    let waiting: { sessionId: string; at: number } | undefined;
    const seenTurns = new Map<string, number>();
    for (const row of rows) {
      if (row.type === 'user.message') waiting = { sessionId: row.sessionId, at: row.createdAt.getTime() };
      else if (waiting?.sessionId === row.sessionId) {
        const turn = (seenTurns.get(row.sessionId) ?? 0) + 1;
        seenTurns.set(row.sessionId, turn);
        if (turn > WARM_UP_MESSAGES) committed.push(row.createdAt.getTime() - waiting.at);
        waiting = undefined;
      }
    }
    const summary = (label: string, samples: number[]) => {
      const sorted = [...samples].sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * q) - 1)]!;
      console.log(
        `wake-up stress, ${label}: ${sorted.length} turns, pickup p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`,
      );
      return { p99: at(0.99), max: sorted.at(-1)! };
    };
    summary('as seen on NATS', pickups);
    const { p99, max } = summary('as committed', committed);
    expect(stuck).toEqual([]);
    expect(committed).toHaveLength(SESSIONS * MESSAGES_PER_SESSION);
    // A lost kick is never rescued here, so it fails above as a session that stops answering: the only
    // periodic look, for leases that expired under their holder, finds none (every drain released its
    // lease), and the reconciler does not run. The bounds below are latency: p99 has ranged 27–145 ms
    // between runs on this 2-core machine; the maximum allows one pause of the database or the collector.
    expect(p99).toBeLessThanOrEqual(250);
    expect(max).toBeLessThan(2_000);
    const inbox = await dp.db.prisma.sessionEvent.count({
      where: { sessionId: { in: sessionIds }, processedAt: null },
    });
    expect(inbox).toBe(0);
  }, 90_000);
});
