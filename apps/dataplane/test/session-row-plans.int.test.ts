import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { ID_PREFIXES, newId } from '@agentry/contracts';
import { createTestDatabase, scansOf, type TestDatabase } from '@agentry/testing';
import { UsageLedgerRepository } from '../src/budgets/usage-ledger.repository.js';
import { SessionEventsRepository, type NewEvent } from '../src/event-log/session-events.repository.js';
import { SessionStateRepository } from '../src/sessions/session-state.repository.js';
import { SqlPool, type SqlLane } from '../src/sql/sql-pool.js';
import { seedSession, type SessionFixture } from './session-fixture.js';

/** Runs every statement as the repositories send it, after asking Postgres how it would find `sessions` rows. */
class PlanRecordingSqlPool extends SqlPool {
  readonly sessionScans: string[] = [];

  override async query<R extends pg.QueryResultRow>(
    name: string,
    text: string,
    values: unknown[],
    lane?: SqlLane,
  ): Promise<pg.QueryResult<R>> {
    for (const scan of await scansOf(this.pool, 'sessions', text, values))
      this.sessionScans.push(`${name}: ${scan}`);
    return super.query<R>(name, text, values, lane);
  }
}

const message = (): NewEvent => ({
  id: newId(ID_PREFIXES.sessionEvent),
  type: 'user.message',
  payload: { content: [{ type: 'text', text: 'hi' }] },
  processed: false,
});

const platformEvent = (type: string): NewEvent => ({
  id: newId(ID_PREFIXES.sessionEvent),
  type,
  payload: {},
  processed: true,
});

/**
 * A turn's statements find the session's row by its primary key whatever the planner's statistics say.
 * With statistics from when the table was small, the namespace's index looked as good, and an append
 * walked every session of the namespace; analysed while no session ran, the status index looked better
 * for the turn's status changes. Either way a statement's cost grew with the number of sessions.
 */
describe('session row plans', () => {
  const NAMESPACE_SESSIONS = 400;
  let db: TestDatabase;
  let sql: PlanRecordingSqlPool;
  let events: SessionEventsRepository;
  let state: SessionStateRepository;
  let ledger: UsageLedgerRepository;
  let fixture: SessionFixture;

  beforeAll(async () => {
    db = await createTestDatabase();
    sql = new PlanRecordingSqlPool({
      DATABASE_URL: db.url,
      AGENTRY_SQL_POOL_SIZE: 2,
      AGENTRY_SQL_PICKUP_POOL_SIZE: 1,
    });
    events = new SessionEventsRepository(sql);
    state = new SessionStateRepository(sql);
    ledger = new UsageLedgerRepository(sql);
    fixture = await seedSession(db.prisma);
    const seeded = await db.prisma.session.findUniqueOrThrow({ where: { id: fixture.sessionId } });
    await db.prisma.session.createMany({
      data: Array.from({ length: NAMESPACE_SESSIONS }, () => ({
        id: newId(ID_PREFIXES.session),
        tenantId: seeded.tenantId,
        namespaceId: seeded.namespaceId,
        agentId: seeded.agentId,
        agentVersion: seeded.agentVersion,
        environmentId: seeded.environmentId,
      })),
    });
  });
  afterAll(async () => {
    await sql?.onApplicationShutdown();
    await db?.drop();
  });

  /** One client append and one whole turn of the seeded session, as the dataplane runs them. */
  async function clientAppendAndTurn(): Promise<void> {
    const { sessionId, tenantId, namespaceId } = fixture;
    const client = { kind: 'client' as const, tenantId, namespaceId };
    await events.append(sessionId, client, [message()]);
    await events.appendNewWork(sessionId, client, [message()], { since: new Date(0) });
    await events.appendKeyed(sessionId, client, { keyHash: 'a'.repeat(64), requestHash: 'b'.repeat(64) }, [
      message(),
    ]);
    await state.findForTenant(sessionId, tenantId, namespaceId);
    const acquired = await state.acquire(sessionId, 'runner', 60_000);
    const lease = acquired!.lease;
    const inbox = await events.inbox(sessionId);
    const started = await events.appendWithTransition(
      sessionId,
      lease,
      { from: ['idle'], to: 'running', stopReason: null, consume: inbox.map((e) => e.id) },
      [platformEvent('session.status_running')],
    );
    expect(started).not.toBeNull();
    await events.append(sessionId, { kind: 'turn', tenantId, token: lease.token }, [
      platformEvent('agent.message'),
    ]);
    await ledger.settle({ tenantId, namespaceId, sessionId, agentId: 'agent' }, randomUUID(), 'scripted', {
      inputTokens: 1,
      outputTokens: 1,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      listCostMicros: 1,
    });
    await state.renew(lease, 60_000);
    await state.liveLease(sessionId);
    const ended = await events.appendWithTransition(
      sessionId,
      lease,
      {
        from: ['running'],
        to: 'idle',
        stopReason: { type: 'end_turn' },
        consume: [],
        release: true,
      },
      [platformEvent('session.status_idle')],
    );
    expect(ended).not.toBeNull();
    await state.release(lease);
  }

  const offTheKey = () =>
    sql.sessionScans.filter((scan) => !/: Index (Only )?Scan sessions_pkey$/.test(scan));

  it('uses the primary key with the statistics of a table that was empty when last looked at', async () => {
    sql.sessionScans.length = 0;
    await clientAppendAndTurn();
    expect(sql.sessionScans.length).toBeGreaterThan(8);
    expect(offTheKey()).toEqual([]);
  });

  it('uses the primary key with statistics taken while every session was idle', async () => {
    await db.prisma.$executeRawUnsafe('ANALYZE sessions');
    sql.sessionScans.length = 0;
    await clientAppendAndTurn();
    expect(sql.sessionScans.length).toBeGreaterThan(8);
    expect(offTheKey()).toEqual([]);
  });
});
