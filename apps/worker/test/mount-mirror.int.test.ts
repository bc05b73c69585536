import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionMount } from '@agentry/contracts';
import { createSqlPool } from '@agentry/db';
import { createTestDatabase, type TestDatabase } from '@agentry/testing';
import { PostgresWorkspaceFs, type MountSourceDeps } from '@agentry/workspace';
import { MountMirror } from '../src/mounts/mount-mirror.js';

/** /mnt kept in step with workspace trees in Postgres: listed again only once something was written there. */
describe('session mounts of workspace trees', () => {
  let db: TestDatabase;
  let pool: ReturnType<typeof createSqlPool>;
  let dir: string;
  const root = 'tenants/t1/sessions/s1/artefacts';

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = createSqlPool(db.url, 4);
    dir = await mkdtemp(join(tmpdir(), 'mounts-'));
  });

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it('copies what changed and, with nothing written since, reads no tree at all', async () => {
    // The owner of the rows writes them; the mirror only reads.
    const owner = new PostgresWorkspaceFs({ sql: pool, table: 'workspace_files', tenantId: 't1', root });
    await owner.writeText('plans/a.md', 'first plan\n', { createParents: true });
    await owner.writeText('results/r1.txt', 'a large result\n', { createParents: true });
    const mounts: SessionMount[] = [
      { path: '/mnt/plans', source: { type: 'workspace', root, dir: 'plans' } },
      { path: '/mnt/tool_results', source: { type: 'workspace', root, dir: 'results' } },
    ];
    const statements: string[] = [];
    const sql = {
      query: (statement: { name: string; text: string; values: unknown[] } | string, values?: unknown[]) => {
        statements.push(typeof statement === 'string' ? statement : statement.name);
        return typeof statement === 'string' ? pool.query(statement, values) : pool.query(statement);
      },
    } as MountSourceDeps['sql'];
    const deps: MountSourceDeps = {
      sql,
      tenantId: 't1',
      content: {
        memories: () => Promise.resolve([]),
        file: () => Promise.resolve(null),
        skillVersion: () => Promise.resolve(null),
      },
    };
    const host = join(dir, 'mnt');
    const mirror = new MountMirror(host);
    const plan = () => readFile(join(host, 'plans/a.md'), 'utf8').catch(() => null);

    await mirror.sync(mounts, deps);
    expect(await plan()).toBe('first plan\n');

    statements.length = 0;
    await mirror.sync(mounts, deps);
    expect(statements).toEqual(['workspace.workspace_files.changeMark']);

    // Rewritten with content of the same size, then removed: each shows at the next sync.
    await owner.writeText('plans/a.md', 'other plan\n');
    await mirror.sync(mounts, deps);
    expect(await plan()).toBe('other plan\n');
    await owner.delete('plans/a.md');
    await mirror.sync(mounts, deps);
    expect(await plan()).toBeNull();

    // Another mount set is copied afresh, whatever the rows.
    statements.length = 0;
    await mirror.sync(mounts.slice(0, 1), deps);
    expect(statements.length).toBeGreaterThan(1);
    expect(await readFile(join(host, 'tool_results/r1.txt'), 'utf8').catch(() => null)).toBeNull();
  });
});
