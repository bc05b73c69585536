import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@agentry/testing';
import { SessionStateRepository } from '../src/sessions/session-state.repository.js';
import { SqlPool } from '../src/sql/sql-pool.js';
import { seedSession } from './session-fixture.js';

/** What the replicas' look for crashed holders finds (`LeaseExpiryWatch`), and what it must not. */
describe('held leases', () => {
  let db: TestDatabase;
  let sql: SqlPool;
  let state: SessionStateRepository;

  beforeAll(async () => {
    db = await createTestDatabase();
    sql = new SqlPool({ DATABASE_URL: db.url, AGENTRY_SQL_POOL_SIZE: 2, AGENTRY_SQL_PICKUP_POOL_SIZE: 1 });
    state = new SessionStateRepository(sql);
  });
  afterAll(async () => {
    await sql?.onApplicationShutdown();
    await db?.drop();
  });

  const expiredIds = async () => (await state.expiredLeases(100)).map((l) => l.sessionId);

  it('lists a lease that expired under its holder, and not one that is live or was released', async () => {
    const crashed = await seedSession(db.prisma);
    const live = await seedSession(db.prisma);
    const released = await seedSession(db.prisma);
    const done = await state.acquire(released.sessionId, 'runner', 50);
    await state.release(done!.lease);
    await state.acquire(live.sessionId, 'runner', 60_000);
    await state.acquire(crashed.sessionId, 'dead-runner', 50);
    // Taken last, the crashed lease expires last: once it is listed, the released one's 50 ms are over too.
    await vi.waitFor(async () => expect(await expiredIds()).toContain(crashed.sessionId));

    expect(await expiredIds()).toEqual([crashed.sessionId]);
    // Taken over, the lease is live again under the new holder.
    expect(await state.acquire(crashed.sessionId, 'next-runner', 60_000)).not.toBeNull();
    expect(await expiredIds()).toEqual([]);
  });

  it('keeps a released lease released when a renewal arrives after the release', async () => {
    const s = await seedSession(db.prisma);
    const acquired = await state.acquire(s.sessionId, 'runner', 60_000);
    await state.release(acquired!.lease);

    expect(await state.renew(acquired!.lease, 60_000)).toBe(false);
    expect(await state.liveLease(s.sessionId)).toBeNull();
    expect(await state.acquire(s.sessionId, 'next-runner', 60_000)).not.toBeNull();
  });
});
