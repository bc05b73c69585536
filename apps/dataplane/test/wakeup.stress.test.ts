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
/**
 * Think time between a session's idle and its next message: about 60 messages a second offered, well
 * below what one dataplane drains, so a pickup measures the wake-up path rather than a queue.
 */
const THINK_MS = { min: 1_500, max: 5_000 };

/**
 * Thousands of messages over a hundred and more sessions, with random timing, on the real dataplane
 * (drain worker, BullMQ, Postgres, NATS) and no reconciler at all: a lost wake-up is never rescued, so
 * it shows up as a session that stops answering. Pickup is the time from the message's commit
 * (announced on NATS) to `session.status_running`.
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
        let wake: ((outcome: 'idle' | 'error') => void) | undefined;
        const unsubscribe = dp.bus.subscribe(PubSubjects.sessionEvents(sessionId), (raw) => {
          const parsed = StoredEventSchema.safeParse(raw);
          if (!parsed.success) return;
          const type = parsed.data.event.type;
          if (type === 'user.message') messageAt = performance.now();
          else if (type === 'session.status_running') pickups.push(performance.now() - messageAt);
          else if (type === 'session.status_idle') wake?.('idle');
          else if (type === 'session.error') wake?.('error');
        });
        await dp.bus.flush();
        try {
          for (let i = 0; i < MESSAGES_PER_SESSION; i += 1) {
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
    pickups.sort((a, b) => a - b);
    const p99 = pickups[Math.ceil(pickups.length * 0.99) - 1]!;
    const max = pickups.at(-1)!;
    console.log(
      `wake-up stress: ${pickups.length} turns, pickup p50 ${pickups[Math.floor(pickups.length / 2)]!.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${max.toFixed(1)} ms`,
    );
    expect(stuck).toEqual([]);
    expect(pickups).toHaveLength(SESSIONS * MESSAGES_PER_SESSION);
    expect(p99).toBeLessThanOrEqual(50);
    expect(max).toBeLessThan(1_000);
    const inbox = await dp.db.prisma.sessionEvent.count({
      where: { sessionId: { in: sessionIds }, processedAt: null },
    });
    expect(inbox).toBe(0);
  }, 90_000);
});
