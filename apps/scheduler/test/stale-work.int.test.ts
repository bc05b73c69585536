import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ID_PREFIXES, newId, PubSubjects } from '@agentry/contracts';
import { randomBytes } from 'node:crypto';
import { createLogger, NatsBus, PrefixedClientNats, RpcClient } from '@agentry/platform';
import {
  createTestDatabase,
  launchService,
  pollUntil,
  testNatsUrl,
  testRedisUrl,
  testSubjectPrefix,
  type ServiceProcess,
  type TestDatabase,
} from '@agentry/testing';
import type { WorkItemState } from '@agentry/db';
import { SchedulerEnvSchema } from '../src/config/env.js';
import { StaleWorkReconciler } from '../src/reconciler/stale-work.reconciler.js';

describe('stale work reclaim against real Postgres and NATS', () => {
  let db: TestDatabase;
  let bus: NatsBus;
  let rpc: RpcClient;
  let dataplane: ServiceProcess;
  let reconciler: StaleWorkReconciler;
  const ids = {
    tenantId: newId(ID_PREFIXES.tenant),
    namespaceId: newId(ID_PREFIXES.namespace),
    agentId: newId(ID_PREFIXES.agent),
    environmentId: newId(ID_PREFIXES.environment),
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    const prefix = testSubjectPrefix();
    bus = await NatsBus.connect(testNatsUrl(), prefix, 'scheduler-test');
    // The work items belong to the dataplane: the reconciler asks it to reclaim them.
    dataplane = await launchService('dataplane', {
      DATABASE_URL: db.url,
      REDIS_URL: testRedisUrl(),
      NATS_URL: testNatsUrl(),
      AGENTRY_ENV: `test-${randomBytes(6).toString('hex')}`,
      AGENTRY_SUBJECT_PREFIX: prefix,
      AGENTRY_LOG_LEVEL: 'warn',
    });
    const proxy = new PrefixedClientNats({ servers: [testNatsUrl()] }, prefix);
    await proxy.connect();
    rpc = new RpcClient(proxy, 10_000);
    const config = SchedulerEnvSchema.parse({
      DATABASE_URL: db.url,
      AGENTRY_SUBJECT_PREFIX: prefix,
      PORT: '0',
    });
    reconciler = new StaleWorkReconciler(rpc, bus, config, createLogger('scheduler', 'silent'));
    const { tenantId, namespaceId, agentId, environmentId } = ids;
    await db.prisma.tenant.create({ data: { id: tenantId, name: 't', slug: tenantId.toLowerCase() } });
    await db.prisma.namespace.create({ data: { id: namespaceId, tenantId, name: 'n', slug: 'n' } });
    await db.prisma.agent.create({ data: { id: agentId, tenantId, namespaceId, name: 'a' } });
    await db.prisma.environment.create({
      data: { id: environmentId, tenantId, namespaceId, name: 'hands', type: 'self_hosted' },
    });
  });
  afterAll(async () => {
    await rpc?.close();
    await bus?.close();
    await dataplane?.stop();
    await db?.drop();
  });

  /** An item in `state` whose lease ends `expiresInMs` from now. */
  async function item(
    state: WorkItemState,
    expiresInMs: number | null,
    awaitingAction = false,
  ): Promise<string> {
    const sessionId = newId(ID_PREFIXES.session);
    const { tenantId, namespaceId, agentId, environmentId } = ids;
    const stopReason = awaitingAction
      ? { type: 'requires_action', event_ids: ['sevt_1'] }
      : { type: 'end_turn' };
    await db.prisma.session.create({
      data: { id: sessionId, tenantId, namespaceId, agentId, agentVersion: 1, environmentId, stopReason },
    });
    const id = newId(ID_PREFIXES.work);
    await db.prisma.workItem.create({
      data: {
        id,
        tenantId,
        environmentId,
        sessionId,
        state,
        workerId: 'crashed',
        secretHash: id,
        lastHeartbeat: '2026-11-30T12:00:00.000Z',
        heartbeatExpiresAt: expiresInMs === null ? null : new Date(Date.now() + expiresInMs),
      },
    });
    return id;
  }

  it('requeues claimed and running items whose lease expired, stops expired stopping ones, and wakes the pollers', async () => {
    const deadActive = await item('active', -1_000);
    const deadStarting = await item('starting', -1_000);
    const deadStopping = await item('stopping', -1_000);
    const deadStoppingAwaited = await item('stopping', -1_000, true);
    const alive = await item('active', 60_000);
    const queued = await item('queued', null);
    const woken: unknown[] = [];
    const unsubscribe = bus.subscribe(PubSubjects.environmentWork(ids.environmentId), (m) => woken.push(m));
    await bus.flush();

    expect(await reconciler.tick()).toBe(4);
    const state = async (id: string) => db.prisma.workItem.findUniqueOrThrow({ where: { id } });
    for (const id of [deadActive, deadStarting]) {
      expect(await state(id)).toMatchObject({
        state: 'queued',
        workerId: null,
        lastHeartbeat: null,
        heartbeatExpiresAt: null,
      });
    }
    expect((await state(deadStopping)).state).toBe('stopped');
    expect((await state(deadStopping)).stoppedAt).not.toBeNull();
    // A session still waiting on a tool call gets a fresh item; one whose turn ended does not.
    const sessionOf = async (id: string) => (await state(id)).sessionId;
    const itemsOf = async (id: string) =>
      (
        await db.prisma.workItem.findMany({
          where: { sessionId: await sessionOf(id) },
          orderBy: { createdAt: 'asc' },
        })
      ).map((w) => w.state);
    expect(await itemsOf(deadStoppingAwaited)).toEqual(['stopped', 'queued']);
    expect(await itemsOf(deadStopping)).toEqual(['stopped']);
    const fresh = await db.prisma.workItem.findFirstOrThrow({
      where: { sessionId: await sessionOf(deadStoppingAwaited), state: 'queued' },
    });
    expect((await state(alive)).state).toBe('active');
    expect((await state(queued)).state).toBe('queued');

    await bus.flush();
    await pollUntil('the three wake-ups', () => woken.length >= 3, 5_000, { everyMs: 20 });
    unsubscribe();
    expect(woken).toEqual(
      expect.arrayContaining([
        { environmentId: ids.environmentId, workId: deadActive },
        { environmentId: ids.environmentId, workId: deadStarting },
        { environmentId: ids.environmentId, workId: fresh.id },
      ]),
    );
    expect(woken).toHaveLength(3);
    expect(await reconciler.tick()).toBe(0);
  });
});
