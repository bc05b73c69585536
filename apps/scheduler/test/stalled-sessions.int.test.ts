import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlSubjects as S, DataplaneSubjects as D } from '@agentry/contracts';
import { pollFor } from '@agentry/testing';
import { SessionReconciler } from '../src/reconciler/session-reconciler.service.js';
import { startSchedulerPlatform, type SchedulerTestPlatform } from './scheduler-test-platform.js';

const MAX_ATTEMPTS = 3;

/**
 * The reconciler against a real dataplane: a session whose turn fails on every attempt at the same input
 * is re-kicked only so often, then ended with a `session.error` and left idle, never kicked again.
 */
describe('reconciler: a turn that keeps failing is not re-kicked forever', () => {
  let platform: SchedulerTestPlatform;

  beforeAll(async () => {
    platform = await startSchedulerPlatform(1, {
      AGENTRY_RECONCILE_INTERVAL_MS: '300',
      AGENTRY_RECONCILE_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
    });
  }, 180_000);
  afterAll(async () => {
    await platform?.close();
  });

  const session = (id: string) =>
    platform.db.prisma.session.findUniqueOrThrow({
      where: { id },
      select: { status: true, stopReason: true, leaseToken: true, leaseExpiresAt: true },
    });

  it('ends the session with an error after the configured attempts, consuming its input', async () => {
    const { rpc, admin: actor } = platform;
    const agent = await rpc.request(S.createAgent, { actor, body: { name: 'doomed', model: 'scripted' } });
    const environment = await rpc.request(S.createEnvironment, {
      actor,
      body: { name: 'env', config: { type: 'remote' } },
    });
    const created = await rpc.request(S.createSession, {
      actor,
      body: { agent: agent.id, environment_id: environment.id },
    });
    // A runtime spec the runner cannot read: every attempt at the turn throws before the harness runs.
    await platform.db.prisma.session.update({ where: { id: created.id }, data: { spec: {} } });

    await rpc.request(D.appendEvents, {
      actor,
      sessionId: created.id,
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'hi' }] }],
    });

    const ended = await pollFor(
      'the session to be ended',
      () => session(created.id),
      // A plain turn writes `running` only with its first model call: until it is ended it may read idle.
      (s) => s.status === 'idle' && s.stopReason !== null && s.leaseToken > 1n,
      60_000,
    );
    expect(ended.stopReason).toEqual({ type: 'retries_exhausted' });
    // The attempts the reconciler allowed, plus the first kick's (and BullMQ's) own, plus the abandonment's lease.
    expect(Number(ended.leaseToken)).toBeGreaterThan(MAX_ATTEMPTS);

    const log = await rpc.request(D.listEvents, { actor, sessionId: created.id });
    const types = log.data.map((e) => e.event.type);
    expect(types.slice(-2)).toEqual(['session.error', 'session.status_idle']);
    expect(log.data.at(-2)!.event).toMatchObject({
      error: {
        type: 'unknown_error',
        retry_status: { type: 'exhausted' },
        message: expect.stringContaining('in a row on the same input') as unknown,
      },
    });
    expect(log.data.find((e) => e.event.type === 'user.message')!.event.processed_at).not.toBeNull();

    // Nothing left to run: reconciler ticks find nothing to kick, and the session stays idle, its log unchanged.
    const reconciler = platform.replicas[0]!.get(SessionReconciler);
    for (let tick = 0; tick < 3; tick += 1) expect(await reconciler.tick()).toBe(0);
    expect(await session(created.id)).toMatchObject({
      status: 'idle',
      stopReason: { type: 'retries_exhausted' },
    });
    expect((await rpc.request(D.listEvents, { actor, sessionId: created.id })).data).toHaveLength(
      log.data.length,
    );
  }, 90_000);
});
