import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ID_PREFIXES, newId } from '@agentry/contracts';
import { createSqlPool } from '@agentry/db';
import { createTestDatabase, type TestDatabase } from '@agentry/testing';
import { SessionEventsRepository } from '../src/event-log/session-events.repository.js';
import { SessionStateRepository } from '../src/sessions/session-state.repository.js';
import { SqlPool } from '../src/sql/sql-pool.js';
import { seedSession, type SessionFixture } from './session-fixture.js';

const BLOCKER = 4242;

const message = () => ({
  id: newId(ID_PREFIXES.sessionEvent),
  type: 'user.message',
  payload: { content: [] },
  processed: false,
});

describe('the pickup lane', () => {
  let db: TestDatabase;
  let sql: SqlPool;
  let s: SessionFixture;

  beforeAll(async () => {
    db = await createTestDatabase();
    sql = new SqlPool({ DATABASE_URL: db.url, AGENTRY_SQL_POOL_SIZE: 2, AGENTRY_SQL_PICKUP_POOL_SIZE: 1 });
    s = await seedSession(db.prisma);
  });
  afterAll(async () => {
    await sql?.onApplicationShutdown();
    await db?.drop();
  });

  it('starts a turn on committed input and hands the lease over while every turn connection is busy', async () => {
    const events = new SessionEventsRepository(sql);
    const state = new SessionStateRepository(sql);
    const client = { kind: 'client' as const, tenantId: s.tenantId, namespaceId: s.namespaceId };
    const [first] = await events.append(s.sessionId, client, [message()]);
    // Another client holds a lock that two statements on the turn pool wait for: the pool is exhausted.
    const holder = createSqlPool(db.url, 1);
    const held = await holder.connect();
    await held.query('SELECT pg_advisory_lock($1)', [BLOCKER]);
    let turnPoolFree = false;
    const busy = Promise.all(
      [1, 2].map(() => sql.query('test.wait-for-blocker', 'SELECT pg_advisory_xact_lock($1)', [BLOCKER])),
    ).then(() => (turnPoolFree = true));
    try {
      const acquired = await state.acquire(s.sessionId, 'runner', 10_000);
      expect(acquired?.inbox.map((e) => e.id)).toEqual([first!.id]);
      const started = await events.appendWithTransition(
        s.sessionId,
        acquired!.lease,
        { from: ['idle'], to: 'running', stopReason: null, consume: [first!.id] },
        [
          {
            id: newId(ID_PREFIXES.sessionEvent),
            type: 'session.status_running',
            payload: {},
            processed: true,
          },
        ],
        'pickup',
      );
      expect(started?.map((e) => e.type)).toEqual(['session.status_running']);
      await state.release(acquired!.lease);
      expect(await events.inbox(s.sessionId)).toEqual([]);
      // The lease is free again for the next runner, and all of it went through while the turn pool was blocked.
      expect(await state.acquire(s.sessionId, 'next-runner', 10_000)).not.toBeNull();
      expect(turnPoolFree).toBe(false);
    } finally {
      await held.query('SELECT pg_advisory_unlock($1)', [BLOCKER]);
      held.release();
      await busy;
      await holder.end();
    }
    expect((await state.find(s.sessionId))?.status).toBe('running');
  });
});
