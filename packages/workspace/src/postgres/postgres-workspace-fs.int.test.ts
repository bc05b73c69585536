import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWorkspaceConformance } from '../testing/workspace-conformance.js';
import { PostgresWorkspaceFs } from './postgres-workspace-fs.js';
import { workspaceTableDdl } from './workspace-files.ddl.js';

const url = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const schema = `ws_${randomBytes(6).toString('hex')}`;
const pools: pg.Pool[] = [];
const openPool = () => {
  const pool = new pg.Pool({ connectionString: url, max: 4, options: `-c search_path=${schema}` });
  pools.push(pool);
  return pool;
};
let pool: pg.Pool;
const liveRoots = new Set<string>();

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  pool = openPool();
  await pool.query(workspaceTableDdl('workspace_files'));
  await pool.query(workspaceTableDdl('hands_workspace_files'));
});

afterAll(async () => {
  await pool.query(`DROP SCHEMA ${schema} CASCADE`);
  await Promise.all(pools.map((p) => p.end()));
});

runWorkspaceConformance('postgres', (options) => {
  const root = `tenants/t1/sessions/${randomBytes(4).toString('hex')}`;
  liveRoots.add(root);
  return Promise.resolve({
    fs: new PostgresWorkspaceFs({
      ...options,
      sql: pool,
      table: 'workspace_files',
      tenantId: 't1',
      root,
      streamChunkBytes: 256 * 1024,
    }),
    escapedEntries: async () => {
      const { rows } = await pool.query(
        'SELECT root, path FROM workspace_files WHERE NOT (root = ANY($1::text[]))',
        [[...liveRoots]],
      );
      return rows.map((r: { root: string; path: string }) => `${r.root}:${r.path}`);
    },
    cleanup: async () => {
      await pool.query('DELETE FROM workspace_files WHERE root = $1', [root]);
      liveRoots.delete(root);
    },
  });
});

describe('postgres: replicas and tenancy', () => {
  it('keeps CAS exact across two replicas with separate connection pools', async () => {
    const root = `tenants/t1/agents/${randomBytes(4).toString('hex')}`;
    const a = new PostgresWorkspaceFs({ sql: openPool(), table: 'workspace_files', tenantId: 't1', root });
    const b = new PostgresWorkspaceFs({ sql: openPool(), table: 'workspace_files', tenantId: 't1', root });
    const first = await a.writeText('shared.md', 'v1');
    expect(await b.readText('shared.md')).toBe('v1');
    let wins = 0;
    for (let i = 0; i < 10; i++) {
      const version = (await a.stat('shared.md'))!.version;
      const results = await Promise.allSettled([
        a.writeText('shared.md', `a${i}`, { ifVersion: version }),
        b.writeText('shared.md', `b${i}`, { ifVersion: version }),
      ]);
      wins += results.filter((r) => r.status === 'fulfilled').length;
    }
    expect(wins).toBe(10);
    expect(Number((await b.stat('shared.md'))!.version)).toBe(Number(first.version) + 10);
    await pool.query('DELETE FROM workspace_files WHERE root = $1', [root]);
  });

  it('does not show one tenant the rows of another under the same root key', async () => {
    const root = `shared/${randomBytes(4).toString('hex')}`;
    const mine = new PostgresWorkspaceFs({ sql: pool, table: 'workspace_files', tenantId: 't1', root });
    const theirs = new PostgresWorkspaceFs({ sql: pool, table: 'workspace_files', tenantId: 't2', root });
    await mine.writeText('private.md', 'secret');
    expect(await theirs.exists('private.md')).toBe(false);
    expect(await theirs.list('', { recursive: true })).toEqual([]);
    await expect(theirs.writeText('private.md', 'overwrite')).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    expect(await mine.readText('private.md')).toBe('secret');
    await pool.query('DELETE FROM workspace_files WHERE root = $1', [root]);
  });
});

describe('postgres: workspace tables', () => {
  it('keeps each table its own: the same root in another table is another workspace', async () => {
    const root = `tenants/t1/hands/sessions/${randomBytes(4).toString('hex')}`;
    const hands = new PostgresWorkspaceFs({
      sql: pool,
      table: 'hands_workspace_files',
      tenantId: 't1',
      root,
    });
    const shared = new PostgresWorkspaceFs({ sql: pool, table: 'workspace_files', tenantId: 't1', root });
    await hands.writeText('src/main.py', 'print(1)');
    expect(await hands.readText('src/main.py')).toBe('print(1)');
    expect(await shared.exists('src/main.py')).toBe(false);
    const { rows } = await pool.query(
      'SELECT path FROM hands_workspace_files WHERE root = $1 ORDER BY path',
      [root],
    );
    expect(rows.map((r: { path: string }) => r.path)).toEqual(['src', 'src/main.py']);
    await pool.query('DELETE FROM hands_workspace_files WHERE root = $1', [root]);
  });

  it('refuses a table outside the known workspace tables, and writes through a read-only one', async () => {
    const root = `tenants/t1/agents/${randomBytes(4).toString('hex')}`;
    const options = { sql: pool, tenantId: 't1', root };
    for (const table of ['sessions', 'workspace_files; DROP TABLE sessions', 'other.workspace_files'])
      expect(() => new PostgresWorkspaceFs({ ...options, table: table as 'workspace_files' })).toThrowError(
        /Unknown workspace table/,
      );
    const reader = new PostgresWorkspaceFs({ ...options, table: 'workspace_files', readOnly: true });
    await expect(reader.writeText('AGENTS.md', 'x')).rejects.toMatchObject({ code: 'READ_ONLY' });
    expect(await reader.exists('AGENTS.md')).toBe(false);
  });
});

describe('postgres: read-ahead', () => {
  const plan = {
    paths: ['AGENTS.md', 'MEMORY.md', 'knowledge', 'knowledge/KNOWLEDGE.md', 'skills', 'subagents'],
    children: ['skills', 'subagents'],
    trees: ['knowledge'],
  };

  async function seeded() {
    const root = `tenants/t1/agents/${randomBytes(4).toString('hex')}`;
    const statements: string[] = [];
    const counting = {
      query: (statement: { name: string; text: string; values: unknown[] }) => (
        statements.push(statement.text),
        pool.query(statement)
      ),
    };
    const writer = new PostgresWorkspaceFs({ sql: pool, table: 'workspace_files', tenantId: 't1', root });
    await writer.writeText('AGENTS.md', 'be brief');
    await writer.writeText('knowledge/KNOWLEDGE.md', 'overview');
    await writer.writeText('knowledge/deep/notes.md', 'notes');
    await writer.writeText('skills/pdf/SKILL.md', '---\nname: pdf\n---');
    const fs = new PostgresWorkspaceFs({ sql: counting, table: 'workspace_files', tenantId: 't1', root });
    return { fs, plain: writer, statements };
  }

  it('answers the first read of each planned path from one round trip, with what a plain read would say', async () => {
    const { fs, plain, statements } = await seeded();
    await fs.readAhead(plan);
    expect(statements).toHaveLength(1);
    expect(await fs.readText('AGENTS.md')).toBe(await plain.readText('AGENTS.md'));
    await expect(fs.readText('MEMORY.md')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await fs.list('knowledge', { recursive: true })).toEqual(
      await plain.list('knowledge', { recursive: true }),
    );
    expect(await fs.list('skills')).toEqual(await plain.list('skills'));
    expect(await fs.stat('subagents')).toBeNull();
    expect(await fs.readText('knowledge/KNOWLEDGE.md')).toBe('overview');
    expect(statements).toHaveLength(1);
    // A second read goes to the database: it sees what changed since.
    await plain.writeText('AGENTS.md', 'be thorough');
    expect(await fs.readText('AGENTS.md')).toBe('be thorough');
    expect(statements).toHaveLength(2);
  });

  it('drops what it read ahead on the first write through the workspace', async () => {
    const { fs, statements } = await seeded();
    await fs.readAhead(plan);
    await fs.writeText('MEMORY.md', 'remember this');
    const before = statements.length;
    expect(await fs.readText('MEMORY.md')).toBe('remember this');
    expect(await fs.readText('AGENTS.md')).toBe('be brief');
    expect(statements.length).toBe(before + 2);
  });
});
