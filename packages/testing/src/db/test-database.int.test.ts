import { DatabaseAdmin } from '@agentry/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseBaseUrl, type TestDatabase } from './test-database.js';

let first: TestDatabase;
let second: TestDatabase;
let admin: DatabaseAdmin;

beforeAll(async () => {
  admin = await DatabaseAdmin.connect(testDatabaseBaseUrl());
  first = await createTestDatabase();
  second = await createTestDatabase();
});

afterAll(async () => {
  await first?.drop();
  await second?.drop();
  await admin?.close();
});

describe('createTestDatabase', () => {
  it('gives each caller its own migrated database', async () => {
    expect(first.name).not.toBe(second.name);
    expect(first.url).toContain(first.name);
    await first.prisma.tenant.create({ data: { id: 'tenant_a', name: 'A', slug: 'a' } });
    expect(await first.prisma.tenant.count()).toBe(1);
    expect(await second.prisma.tenant.count()).toBe(0);
  });

  it('copies one migrated template instead of migrating each database', async () => {
    const query = 'SELECT id, finished_at::text AS finished FROM _prisma_migrations ORDER BY id';
    const a = await first.prisma.$queryRawUnsafe<{ id: string; finished: string }[]>(query);
    const b = await second.prisma.$queryRawUnsafe<{ id: string; finished: string }[]>(query);
    expect(a.length).toBeGreaterThan(0);
    // Identical migration rows (same ids, same finish times) mean both are copies of one run.
    expect(b).toEqual(a);
    expect(await first.prisma.session.count()).toBe(0);
  });

  it('drop() removes the database even with a client still connected', async () => {
    const db = await createTestDatabase();
    await db.prisma.tenant.count();
    await db.drop();
    expect(await admin.databaseExists(db.name)).toBe(false);
    expect(() => db.prisma).toThrow(/dropped/);
    await db.drop();
  });
});
