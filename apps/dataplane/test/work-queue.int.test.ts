import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AppError,
  decodeWorkSecret,
  ID_PREFIXES,
  NO_HEARTBEAT,
  newId,
  PubSubjects,
  WorkSubjects as W,
  type WorkPrincipal,
} from '@agentry/contracts';
import { pollUntil } from '@agentry/testing';
import { WorkWakeups } from '../src/work/work-wakeups.js';
import { startDataplane, type DataplaneTestApp } from './dataplane-test-app.js';
import {
  seedSelfHostedEnvironment,
  seedSelfHostedSession,
  type SelfHostedEnvironment,
} from './self-hosted-fixture.js';

const keyOf = (env: SelfHostedEnvironment): WorkPrincipal => ({
  tenantId: env.tenantId,
  namespaceId: env.namespaceId,
  environmentId: env.environmentId,
  workId: null,
  sessionId: null,
});
const isCode = (code: string) => (e: unknown) => AppError.is(e, code as never);

describe('self-hosted work queue over NATS', () => {
  let dp: DataplaneTestApp;
  beforeAll(async () => {
    dp = await startDataplane();
  });
  afterAll(async () => {
    await dp?.close();
  });

  /** A fresh environment with `count` queued items, oldest first (one session each). */
  async function queueOf(
    count: number,
  ): Promise<{ env: SelfHostedEnvironment; key: WorkPrincipal; ids: string[] }> {
    const env = await seedSelfHostedEnvironment(dp.db.prisma);
    const ids: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const sessionId = await seedSelfHostedSession(dp.db.prisma, env);
      const id = newId(ID_PREFIXES.work);
      await dp.db.prisma.workItem.create({
        data: {
          id,
          tenantId: env.tenantId,
          environmentId: env.environmentId,
          sessionId,
          createdAt: new Date(Date.now() - (count - i) * 1000),
        },
      });
      ids.push(id);
    }
    return { env, key: keyOf(env), ids };
  }
  const poll = (
    principal: WorkPrincipal,
    workerId = 'worker-a',
    extra: { blockMs?: number; reclaimOlderThanMs?: number } = {},
  ) => dp.rpc.request(W.poll, { principal, workerId, ...extra }).then((r) => r.work);

  it('claims the oldest queued item and hands its sessions token out once, in the poll reply only', async () => {
    const { key, ids } = await queueOf(3);
    const work = await poll(key);
    expect(work).toMatchObject({
      id: ids[0],
      state: 'starting',
      environment_id: key.environmentId,
      data: { type: 'session' },
    });
    const { sessions_token } = decodeWorkSecret(work!.secret!);
    expect(sessions_token).toMatch(/^agentry_worktok_/);
    expect((await dp.rpc.request(W.get, { principal: key, workId: work!.id })).secret).toBeNull();
    const row = await dp.db.prisma.workItem.findUniqueOrThrow({ where: { id: work!.id } });
    expect(row.secretHash).not.toContain(sessions_token);

    const principal = await dp.rpc.request(W.verifySessionsToken, { token: sessions_token });
    expect(principal).toEqual({ ...key, workId: ids[0], sessionId: work!.data.id });
    await expect(
      dp.rpc.request(W.verifySessionsToken, { token: 'agentry_worktok_forged' }),
    ).rejects.toSatisfy(isCode('UNAUTHENTICATED'));
    expect((await poll(key))!.id).toBe(ids[1]);
  });

  it('never hands one item to two concurrent pollers', async () => {
    const { key, ids } = await queueOf(6);
    const claims = await Promise.all(Array.from({ length: 10 }, (_, i) => poll(key, `racer-${i}`)));
    const claimed = claims.flatMap((w) => (w ? [w.id] : []));
    expect(claimed.sort()).toEqual([...ids].sort());
    expect(claims.filter((w) => w === null)).toHaveLength(4);
  });

  it('waits up to blockMs on an empty queue, and wakes when work is queued meanwhile', async () => {
    const { env, key } = await queueOf(0);
    const started = Date.now();
    expect(await poll(key, 'idle', { blockMs: 600 })).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(550);

    const sessionId = await seedSelfHostedSession(dp.db.prisma, env);
    const waiting = poll(key, 'idle', { blockMs: 1000 });
    const wakeups = dp.app.get(WorkWakeups);
    await pollUntil('the poll to wait', () => wakeups.waiting(env.environmentId) > 0, 1_000, { everyMs: 5 });
    const id = newId(ID_PREFIXES.work);
    await dp.db.prisma.workItem.create({
      data: { id, tenantId: env.tenantId, environmentId: env.environmentId, sessionId },
    });
    dp.bus.publish(PubSubjects.environmentWork(env.environmentId), {
      environmentId: env.environmentId,
      workId: id,
    });
    // The waiting poll answers with the item queued meanwhile, within its block.
    expect((await waiting)?.id).toBe(id);
  });

  it('acks, then extends the lease only for the holder of the last heartbeat (412 with the stored lease otherwise)', async () => {
    const { key } = await queueOf(1);
    const work = (await poll(key))!;
    const acked = await dp.rpc.request(W.ack, { principal: key, workId: work.id });
    expect(acked.state).toBe('active');
    expect(acked.acknowledged_at).not.toBeNull();

    const first = await dp.rpc.request(W.heartbeat, {
      principal: key,
      workId: work.id,
      expectedLastHeartbeat: NO_HEARTBEAT,
    });
    expect(first).toMatchObject({
      type: 'work_heartbeat',
      state: 'active',
      lease_extended: true,
      ttl_seconds: 60,
    });
    expect(new Date(first.last_heartbeat).toISOString()).toBe(first.last_heartbeat);

    const stale = dp.rpc.request(W.heartbeat, {
      principal: key,
      workId: work.id,
      expectedLastHeartbeat: NO_HEARTBEAT,
    });
    await expect(stale).rejects.toSatisfy((e) => {
      const err = e as AppError;
      return (
        AppError.is(e, 'PRECONDITION_FAILED') &&
        JSON.stringify(err.details?.current_state) ===
          JSON.stringify({
            state: 'active',
            ttl_seconds: 60,
            last_heartbeat: first.last_heartbeat,
            lease_extended: false,
          })
      );
    });
    const second = await dp.rpc.request(W.heartbeat, {
      principal: key,
      workId: work.id,
      expectedLastHeartbeat: first.last_heartbeat,
      desiredTtlSeconds: 120,
    });
    expect(second.last_heartbeat > first.last_heartbeat).toBe(true);
    expect(second.ttl_seconds).toBe(120);
    expect((await dp.rpc.request(W.get, { principal: key, workId: work.id })).latest_heartbeat_at).toBe(
      second.last_heartbeat,
    );
  });

  it('stops gracefully or at once, refuses to stop twice, and revokes the sessions token', async () => {
    const { key } = await queueOf(1);
    const work = (await poll(key))!;
    const token = decodeWorkSecret(work.secret!).sessions_token;
    const beat = await dp.rpc.request(W.heartbeat, {
      principal: key,
      workId: work.id,
      expectedLastHeartbeat: NO_HEARTBEAT,
    });

    const stopping = await dp.rpc.request(W.stop, { principal: key, workId: work.id });
    expect(stopping).toMatchObject({ state: 'stopping', stopped_at: null });
    expect(stopping.stop_requested_at).not.toBeNull();
    // While stopping, the holder hears it on its next heartbeat, whatever it expected.
    const told = await dp.rpc.request(W.heartbeat, {
      principal: key,
      workId: work.id,
      expectedLastHeartbeat: 'NO_HEARTBEAT',
    });
    expect(told.state).toBe('stopping');
    expect(told.last_heartbeat > beat.last_heartbeat).toBe(true);

    const stopped = await dp.rpc.request(W.stop, { principal: key, workId: work.id, force: true });
    expect(stopped.state).toBe('stopped');
    expect(stopped.stopped_at).not.toBeNull();
    await expect(dp.rpc.request(W.stop, { principal: key, workId: work.id, force: true })).rejects.toSatisfy(
      isCode('CONFLICT'),
    );
    await expect(dp.rpc.request(W.verifySessionsToken, { token })).rejects.toSatisfy(
      isCode('UNAUTHENTICATED'),
    );
    const after = await dp.rpc.request(W.heartbeat, {
      principal: key,
      workId: work.id,
      expectedLastHeartbeat: told.last_heartbeat,
    });
    expect(after).toMatchObject({ state: 'stopped', lease_extended: false });
    await expect(dp.rpc.request(W.ack, { principal: key, workId: work.id })).rejects.toSatisfy(
      isCode('CONFLICT'),
    );

    const { key: other, ids } = await queueOf(1);
    expect((await dp.rpc.request(W.stop, { principal: other, workId: ids[0]! })).state).toBe('stopped');
  });

  it('reclaims an item whose lease expired, or that was claimed and never acknowledged', async () => {
    const { key, ids } = await queueOf(2);
    const first = (await poll(key, 'crashes'))!;
    const oldToken = decodeWorkSecret(first.secret!).sessions_token;
    await dp.rpc.request(W.ack, { principal: key, workId: first.id });
    const beat = await dp.rpc.request(W.heartbeat, {
      principal: key,
      workId: first.id,
      expectedLastHeartbeat: NO_HEARTBEAT,
      desiredTtlSeconds: 1,
    });
    const unacked = (await poll(key, 'vanishes'))!;
    expect([first.id, unacked.id]).toEqual(ids);
    expect(await poll(key, 'rescuer')).toBeNull();

    // Reclaimed once the 1 s lease of the heartbeat runs out by Postgres' clock.
    const rescued = await pollUntil('the expired lease to be reclaimed', () =>
      poll(key, 'rescuer', { reclaimOlderThanMs: 60_000 }),
    );
    expect(rescued.id).toBe(first.id);
    expect(rescued).toMatchObject({ state: 'starting', acknowledged_at: null, latest_heartbeat_at: null });
    // The crashed holder lost everything: its token and its lease.
    await expect(dp.rpc.request(W.verifySessionsToken, { token: oldToken })).rejects.toSatisfy(
      isCode('UNAUTHENTICATED'),
    );
    await expect(
      dp.rpc.request(W.heartbeat, {
        principal: key,
        workId: first.id,
        expectedLastHeartbeat: beat.last_heartbeat,
      }),
    ).rejects.toSatisfy(isCode('PRECONDITION_FAILED'));

    // An acknowledged item is safe from that; the one nobody acknowledged is not.
    await dp.rpc.request(W.ack, { principal: key, workId: rescued.id });
    expect((await poll(key, 'rescuer', { reclaimOlderThanMs: 0 }))?.id).toBe(unacked.id);
  });

  it('confines every caller to its own environment, and a sessions token to its own item', async () => {
    const a = await queueOf(2);
    const b = await queueOf(1);
    const claimed = (await poll(a.key))!;
    const tokenPrincipal = await dp.rpc.request(W.verifySessionsToken, {
      token: decodeWorkSecret(claimed.secret!).sessions_token,
    });

    const strangers = [
      () => dp.rpc.request(W.get, { principal: b.key, workId: claimed.id }),
      () => dp.rpc.request(W.ack, { principal: b.key, workId: claimed.id }),
      () =>
        dp.rpc.request(W.heartbeat, {
          principal: b.key,
          workId: claimed.id,
          expectedLastHeartbeat: NO_HEARTBEAT,
        }),
      () => dp.rpc.request(W.stop, { principal: b.key, workId: claimed.id, force: true }),
      () => dp.rpc.request(W.get, { principal: tokenPrincipal, workId: a.ids[1]! }),
      () => dp.rpc.request(W.list, { principal: { ...a.key, namespaceId: b.key.namespaceId } }),
      () => dp.rpc.request(W.stats, { principal: { ...b.key, tenantId: a.key.tenantId } }),
    ];
    for (const request of strangers) await expect(request()).rejects.toSatisfy(isCode('NOT_FOUND'));
    await expect(poll(tokenPrincipal)).rejects.toSatisfy(isCode('PERMISSION_DENIED'));
    expect((await dp.rpc.request(W.get, { principal: tokenPrincipal, workId: claimed.id })).state).toBe(
      'starting',
    );
    expect((await dp.rpc.request(W.list, { principal: tokenPrincipal })).data.map((w) => w.id)).toEqual([
      claimed.id,
    ]);
    // Nothing changed for the item the stranger tried to stop.
    expect((await dp.rpc.request(W.get, { principal: a.key, workId: claimed.id })).state).toBe('starting');
  });

  it('lists newest first with paging and a state filter, reports queue stats, and patches metadata', async () => {
    const { key, ids } = await queueOf(3);
    await poll(key, 'counter');
    const page1 = await dp.rpc.request(W.list, { principal: key, limit: 2 });
    expect(page1.data.map((w) => w.id)).toEqual([ids[2], ids[1]]);
    const page2 = await dp.rpc.request(W.list, { principal: key, limit: 2, page: page1.next_page! });
    expect(page2).toMatchObject({ data: [{ id: ids[0], state: 'starting' }], next_page: null });
    expect((await dp.rpc.request(W.list, { principal: key, state: 'queued' })).data.map((w) => w.id)).toEqual(
      [ids[2], ids[1]],
    );
    await expect(dp.rpc.request(W.list, { principal: key, page: 'bm9wZQ' })).rejects.toSatisfy(
      isCode('INVALID_REQUEST'),
    );

    const stats = await dp.rpc.request(W.stats, { principal: key });
    const oldest = await dp.db.prisma.workItem.findUniqueOrThrow({ where: { id: ids[0]! } });
    expect(stats).toEqual({
      type: 'work_queue_stats',
      depth: 2,
      pending: 1,
      oldest_queued_at: oldest.createdAt.toISOString(),
      workers_polling: 1,
    });

    const tagged = await dp.rpc.request(W.update, {
      principal: key,
      workId: ids[1]!,
      body: { metadata: { team: 'ops', host: 'a' } },
    });
    expect(tagged.metadata).toEqual({ team: 'ops', host: 'a' });
    const untagged = await dp.rpc.request(W.update, {
      principal: key,
      workId: ids[1]!,
      body: { metadata: { host: null } },
    });
    expect(untagged.metadata).toEqual({ team: 'ops' });
  });

  it("reports the namespace's waiting items and its workers' last polls", async () => {
    const { env, key } = await queueOf(2);
    const before = Date.now();
    await poll(key, 'status-worker');
    const status = await dp.rpc.request(W.handsStatus, {
      tenantId: env.tenantId,
      namespaceId: env.namespaceId,
    });
    expect(status.pendingWorkItems).toBe(2);
    expect(Object.keys(status.workerHeartbeats)).toEqual(['status-worker']);
    expect(status.workerHeartbeats['status-worker']).toBeGreaterThanOrEqual(before - 1_000);
    expect(status.brainInstanceId).toMatch(/^brain-/);
  });
});
