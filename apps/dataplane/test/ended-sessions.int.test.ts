import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@agentry/testing';
import { EndedSessionsRepository } from '../src/mcp/ended-sessions.repository.js';
import { SqlPool } from '../src/sql/sql-pool.js';
import { seedSession } from './session-fixture.js';

describe('EndedSessionsRepository', () => {
  let db: TestDatabase;
  let sql: SqlPool;
  beforeAll(async () => {
    db = await createTestDatabase();
    sql = new SqlPool({ DATABASE_URL: db.url, AGENTRY_SQL_POOL_SIZE: 2, AGENTRY_SQL_PICKUP_POOL_SIZE: 1 });
  });
  afterAll(async () => {
    await sql?.onApplicationShutdown();
    await db?.drop();
  });

  it('names the sessions archived, terminated or gone, and not the live ones', async () => {
    const [live, running, archived, terminated, deleted] = await Promise.all(
      [1, 2, 3, 4, 5].map(() => seedSession(db.prisma)),
    );
    await db.prisma.session.update({ where: { id: running!.sessionId }, data: { status: 'running' } });
    await db.prisma.session.update({ where: { id: archived!.sessionId }, data: { archivedAt: new Date() } });
    await db.prisma.session.update({ where: { id: terminated!.sessionId }, data: { status: 'terminated' } });
    await db.prisma.session.delete({ where: { id: deleted!.sessionId } });
    const ids = [live, running, archived, terminated, deleted].map((s) => s!.sessionId);
    expect(await new EndedSessionsRepository(sql).endedAmong(ids)).toEqual(ids.slice(2));
    expect(await new EndedSessionsRepository(sql).endedAmong([])).toEqual([]);
  });
});
