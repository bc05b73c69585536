import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlSubjects as S } from '@agentry/contracts';
import { pollUntil } from '@agentry/testing';
import { EventRetentionService } from '../src/retention/event-retention.service.js';
import { startSchedulerPlatform, type SchedulerTestPlatform } from './scheduler-test-platform.js';

const DAY_MS = 86_400_000;

/**
 * The event retention sweep on a real database, with control and dataplane running: the logs of sessions
 * ended before the window go, and nothing else does — least of all the log of live work.
 */
describe('event retention', () => {
  let platform: SchedulerTestPlatform;

  beforeAll(async () => {
    platform = await startSchedulerPlatform(1, {
      AGENTRY_EVENT_RETENTION_DAYS: '2',
      AGENTRY_EVENT_RETENTION_INTERVAL_MS: '1000',
    });
  }, 180_000);
  afterAll(async () => {
    await platform?.close();
  });

  async function sessionWithLog(events: Array<{ processed: boolean }>): Promise<string> {
    const { rpc, admin: actor } = platform;
    const agent = await rpc.request(S.createAgent, { actor, body: { name: 'kept', model: 'scripted' } });
    const environment = await rpc.request(S.createEnvironment, {
      actor,
      body: { name: `env-${agent.id}`, config: { type: 'remote' } },
    });
    const session = await rpc.request(S.createSession, {
      actor,
      body: { agent: agent.id, environment_id: environment.id },
    });
    await platform.db.prisma.sessionEvent.createMany({
      data: events.map((event, index) => ({
        id: `evt_${session.id}_${index}`,
        tenantId: actor.tenantId,
        sessionId: session.id,
        seq: BigInt(index + 1),
        type: index === 0 ? 'user.message' : 'agent.message',
        payload: {},
        processedAt: event.processed ? new Date() : null,
      })),
    });
    // The first message was sent under an idempotency key, which names it.
    await platform.db.prisma.sessionEventKey.create({
      data: {
        sessionId: session.id,
        keyHash: 'k'.repeat(64),
        requestHash: 'r'.repeat(64),
        eventIds: [`evt_${session.id}_0`],
      },
    });
    return session.id;
  }

  /** Sets status and archive time directly, dated `daysAgo` in the past (updated_at included). */
  async function age(
    id: string,
    state: { status: string; archivedDaysAgo?: number; daysAgo: number },
  ): Promise<void> {
    const updatedAt = new Date(Date.now() - state.daysAgo * DAY_MS);
    const archivedAt =
      state.archivedDaysAgo === undefined ? null : new Date(Date.now() - state.archivedDaysAgo * DAY_MS);
    await platform.db.prisma.$executeRaw`
      UPDATE sessions SET status = ${state.status}::session_status, archived_at = ${archivedAt}, updated_at = ${updatedAt} WHERE id = ${id}`;
  }

  const eventCount = (sessionId: string) => platform.db.prisma.sessionEvent.count({ where: { sessionId } });

  it('deletes the logs of sessions archived or terminated before the window, never those of live or recent work', async () => {
    const done = [{ processed: true }, { processed: true }, { processed: true }];
    const archivedLongAgo = await sessionWithLog(done);
    await age(archivedLongAgo, { status: 'idle', archivedDaysAgo: 3, daysAgo: 3 });
    const terminatedLongAgo = await sessionWithLog(done);
    await age(terminatedLongAgo, { status: 'terminated', daysAgo: 5 });
    const archivedRecently = await sessionWithLog(done);
    await age(archivedRecently, { status: 'idle', archivedDaysAgo: 1, daysAgo: 3 });
    const idleOld = await sessionWithLog(done);
    await age(idleOld, { status: 'idle', daysAgo: 10 });
    const runningOld = await sessionWithLog(done);
    await age(runningOld, { status: 'running', archivedDaysAgo: 4, daysAgo: 4 });
    const pendingInputOld = await sessionWithLog([{ processed: false }, { processed: true }]);
    await age(pendingInputOld, { status: 'idle', archivedDaysAgo: 4, daysAgo: 4 });

    await pollUntil(
      'the retention sweep to delete the expired logs',
      async () => (await eventCount(archivedLongAgo)) + (await eventCount(terminatedLongAgo)) === 0,
      60_000,
    );
    // A few more sweeps: the others must survive all of them.
    const retention = platform.replicas[0]!.get(EventRetentionService);
    for (let sweep = 0; sweep < 3; sweep += 1) expect(await retention.tick()).toBe(0);
    expect(await eventCount(archivedRecently)).toBe(3);
    expect(await eventCount(idleOld)).toBe(3);
    expect(await eventCount(runningOld)).toBe(3);
    expect(await eventCount(pendingInputOld)).toBe(2);
    // An idempotency key goes with the events it names.
    expect(
      await platform.db.prisma.sessionEventKey.count({
        where: { sessionId: { in: [archivedLongAgo, terminatedLongAgo] } },
      }),
    ).toBe(0);
    expect(await platform.db.prisma.sessionEventKey.count({ where: { sessionId: archivedRecently } })).toBe(
      1,
    );

    // Only the logs go: the sessions themselves are still there.
    const { rpc, admin: actor } = platform;
    expect((await rpc.request(S.getSession, { actor, id: terminatedLongAgo })).status).toBe('terminated');
    const listed = await rpc.request(S.listSessions, {
      actor,
      query: { include_archived: true, limit: 100 },
    });
    expect(listed.data.map((s) => s.id)).toEqual(
      expect.arrayContaining([archivedLongAgo, terminatedLongAgo]),
    );
  }, 120_000);
});
