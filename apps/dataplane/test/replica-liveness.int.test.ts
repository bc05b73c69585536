import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@agentry/platform';
import { createTestDatabase, pollFor, type TestDatabase } from '@agentry/testing';
import type { DataplaneEnv } from '../src/config/env.js';
import { ReplicaLiveness } from '../src/drain/replica-liveness.js';
import { SessionStateRepository } from '../src/sessions/session-state.repository.js';
import { SqlPool } from '../src/sql/sql-pool.js';
import { seedSession } from './session-fixture.js';

const BEAT_MS = 50;
const ALIVE_MS = 300;
const LONG_LEASE_MS = 60_000;

/**
 * A crashed replica's turn leases are taken over once its liveness row lapses, long before the leases
 * expire; a replica that keeps beating keeps its leases however long its turn runs.
 */
describe('replica liveness and early takeover', () => {
  let db: TestDatabase;
  let sql: SqlPool;
  let state: SessionStateRepository;
  const replicas: ReplicaLiveness[] = [];

  const newReplica = async () => {
    const config = { AGENTRY_REPLICA_BEAT_MS: BEAT_MS, AGENTRY_REPLICA_ALIVE_MS: ALIVE_MS } as DataplaneEnv;
    const replica = new ReplicaLiveness(sql, config, createLogger('test', 'silent'));
    await replica.onApplicationBootstrap();
    replicas.push(replica);
    return replica;
  };
  const expiredIds = async () => (await state.expiredLeases(100)).map((l) => l.sessionId);

  beforeAll(async () => {
    db = await createTestDatabase();
    sql = new SqlPool({ DATABASE_URL: db.url, AGENTRY_SQL_POOL_SIZE: 2, AGENTRY_SQL_PICKUP_POOL_SIZE: 1 });
    state = new SessionStateRepository(sql);
  });
  afterAll(async () => {
    for (const replica of replicas) await replica.onApplicationShutdown();
    await sql?.onApplicationShutdown();
    await db?.drop();
  });

  it('takes over the leases of a replica that stopped beating, for every role, before they expire', async () => {
    // What a kill -9 leaves: the replica's row, no longer renewed, and its leases with most of their TTL.
    await db.prisma.dataplaneReplica.create({
      data: { replica: 'host:1:dead', aliveUntil: new Date(Date.now() - 1_000) },
    });
    const drained = await seedSession(db.prisma);
    const abandoned = await seedSession(db.prisma);
    const held = await state.acquire(drained.sessionId, 'host:1:dead', LONG_LEASE_MS);
    await state.acquire(abandoned.sessionId, 'host:1:dead/abandon', LONG_LEASE_MS);

    expect((await expiredIds()).sort()).toEqual([drained.sessionId, abandoned.sessionId].sort());
    const survivor = await newReplica();
    const taken = await state.acquire(drained.sessionId, survivor.ownerFor(), LONG_LEASE_MS);
    expect(taken?.lease.token).toBeGreaterThan(held!.lease.token);
    // The old holder's renewal is refused: its token is no longer the lease's.
    expect(await state.renew(held!.lease, LONG_LEASE_MS)).toBe(false);
    expect(await state.acquire(abandoned.sessionId, survivor.ownerFor(), LONG_LEASE_MS)).not.toBeNull();
    expect(await expiredIds()).toEqual([]);
  });

  it('keeps the lease of a replica that keeps beating, well past its alive window', async () => {
    const holder = await newReplica();
    const other = await newReplica();
    const s = await seedSession(db.prisma);
    expect(await state.acquire(s.sessionId, holder.ownerFor(), LONG_LEASE_MS)).not.toBeNull();
    // Its row, renewed beat after beat, reaches three alive windows past the one it had: by Postgres'
    // clock the holder is well past the window in which it would have lapsed had it stopped beating.
    const aliveUntil = async () =>
      (
        await db.prisma.dataplaneReplica.findUniqueOrThrow({ where: { replica: holder.replica } })
      ).aliveUntil.getTime();
    const firstWindowEnds = await aliveUntil();
    await pollFor('the holder to beat on', aliveUntil, (t) => t >= firstWindowEnds + ALIVE_MS * 3, 10_000, {
      everyMs: BEAT_MS,
    });
    expect(await expiredIds()).not.toContain(s.sessionId);
    expect(await state.acquire(s.sessionId, other.ownerFor(), LONG_LEASE_MS)).toBeNull();
  });

  it('lets the leases of a replica that shut down be taken at once', async () => {
    const leaving = await newReplica();
    const other = await newReplica();
    const s = await seedSession(db.prisma);
    await state.acquire(s.sessionId, leaving.ownerFor(), LONG_LEASE_MS);
    await leaving.onApplicationShutdown();
    expect(await expiredIds()).toContain(s.sessionId);
    expect(await state.acquire(s.sessionId, other.ownerFor(), LONG_LEASE_MS)).not.toBeNull();
  });

  it('takes a lease whose owner is no replica only when it expires', async () => {
    const s = await seedSession(db.prisma);
    await state.acquire(s.sessionId, 'a-runner-of-its-own', LONG_LEASE_MS);
    expect(await expiredIds()).not.toContain(s.sessionId);
    expect(await state.acquire(s.sessionId, 'someone-else', LONG_LEASE_MS)).toBeNull();
  });
});
