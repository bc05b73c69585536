import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { TABLE_OWNERS, type OwningService, type ServiceDatabase } from './table-owners.js';
import {
  findRawSqlTables,
  findTableWrites,
  foreignWrites,
  schemaTables,
  UNNAMED_WORKSPACE_TABLE,
} from './table-writes.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const tables = schemaTables(readFileSync(join(root, 'packages/db/prisma/schema.prisma'), 'utf8'));
const SERVICES: OwningService[] = ['gateway', 'control', 'dataplane', 'scheduler', 'worker'];

/** A service's non-test TypeScript sources, path (from the repo root) → text. */
function sourcesOf(service: OwningService): Map<string, string> {
  return sourcesUnder(join(root, 'apps', service, 'src'));
}

/**
 * Every shared package's non-test TypeScript sources. `testing` builds fixtures for tests and `db` is the
 * schema's own package (its generated client spells out every table): `except` leaves them out.
 */
function packageSources(except: string[] = []): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(join(root, 'packages'), { withFileTypes: true })) {
    if (!entry.isDirectory() || except.includes(entry.name)) continue;
    for (const [path, text] of sourcesUnder(join(root, 'packages', entry.name, 'src'))) files.set(path, text);
  }
  return files;
}

function sourcesUnder(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  if (!existsSync(dir)) return files;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(root, path), readFileSync(path, 'utf8'));
  }
  return files;
}

describe('table ownership', () => {
  it('gives every table of the schema one owning service', () => {
    expect([...tables.keys()].sort()).toEqual(Object.keys(TABLE_OWNERS).sort());
  });

  it.each(SERVICES)('%s writes only the tables it owns', (service) => {
    const found = foreignWrites(service, sourcesOf(service), tables).map(
      (w) => `${w.file}:${w.line} ${w.statement} writes ${w.table}, owned by ${w.owner ?? 'no service'}`,
    );
    expect(found).toEqual([]);
  });

  it('gives every workspace table of the Postgres workspace backend an owner', () => {
    const declared = readFileSync(join(root, 'packages/workspace/src/postgres/workspace-tables.ts'), 'utf8');
    const list = /WORKSPACE_TABLES = \[([^\]]*)\]/.exec(declared)![1]!;
    const workspaceTables = [...list.matchAll(/'([a-z_]+)'/g)].map((m) => m[1]!);
    expect(workspaceTables.length).toBeGreaterThan(0);
    const owned = new Set(tables.values());
    expect(workspaceTables.filter((t) => !owned.has(t))).toEqual([]);
  });

  it('lets the shared packages open workspace tables only read-only, so every writer is an app the scan reads', () => {
    const writes = [...packageSources()].flatMap(([file, source]) =>
      findTableWrites(source, tables)
        .filter((w) => w.statement.startsWith('PostgresWorkspaceFs'))
        .map((w) => `${file}:${w.line} ${w.statement}`),
    );
    expect(writes).toEqual([]);
  });

  it("runs no raw SQL against a service's table from a shared package: it reads through the owner", () => {
    const workspaceTables = new Set(['workspace_files', 'hands_workspace_files']);
    const found = [...packageSources(['testing', 'db'])].flatMap(([file, source]) =>
      findRawSqlTables(source, tables)
        .filter((use) => !workspaceTables.has(use.table))
        .map((use) => `${file}:${use.line} ${use.statement}`),
    );
    expect(found).toEqual([]);
  });

  it('finds reads as well as writes in raw SQL, and only of known tables', () => {
    const source = [
      "const SELECT_FILES = 'select id, content from files where tenant_id = $1';",
      '// select path from memories — prose in a comment',
      'const q = `SELECT s.latest_version FROM skills s JOIN skill_versions v ON v.skill_id = s.id`;',
      "const other = 'select 1 from pg_database';",
      "const prose = 'what it can re-read from files';",
    ].join('\n');
    expect(findRawSqlTables(source, tables).map((u) => [u.line, u.table])).toEqual([
      [1, 'files'],
      [3, 'skills'],
      [3, 'skill_versions'],
    ]);
  });

  it('catches a service opening a workspace table it does not own for writing', () => {
    const source = [
      "import { PostgresWorkspaceFs, PostgresWorkspaceFs as Rows } from '@agentry/workspace';",
      'export class Workspaces {',
      '  open() {',
      "    const shared = new PostgresWorkspaceFs({ sql, table: 'workspace_files', tenantId, root });",
      '    const reader = new PostgresWorkspaceFs({',
      "      table: 'workspace_files',",
      '      readOnly: true,',
      '    });',
      "    const own = new PostgresWorkspaceFs({ sql, table: 'hands_workspace_files', tenantId, root });",
      '    const unnamed = new PostgresWorkspaceFs(options);',
      "    const spread = new PostgresWorkspaceFs({ table: 'hands_workspace_files', readOnly: true, ...more });",
      '    const aliased = new Rows({',
      '      sql,',
      "      table: 'workspace_files',",
      '      readOnly: false,',
      '    });',
      "    // new PostgresWorkspaceFs({ table: 'workspace_files' }) in prose is no write.",
      '  }',
      '}',
    ].join('\n');
    const found = foreignWrites('worker', new Map([['apps/worker/src/leaky.ts', source]]), tables);
    expect(found.map((w) => [w.line, w.table, w.owner])).toEqual([
      [4, 'workspace_files', 'dataplane'],
      [10, UNNAMED_WORKSPACE_TABLE, null],
      [11, UNNAMED_WORKSPACE_TABLE, null],
      [12, 'workspace_files', 'dataplane'],
    ]);
    // For the dataplane, the same file writes only what it does not own (and what the scan cannot name).
    expect(foreignWrites('dataplane', new Map([['x.ts', source]]), tables).map((w) => w.line)).toEqual([
      9, 10, 11,
    ]);
  });

  it('catches a delegate write, a transaction write and raw SQL to a table of another service', () => {
    const source = [
      'export class Leaky {',
      '  async run() {',
      '    await this.db.session.create({ data });',
      '    await this.db.$transaction(async (tx) => {',
      '      await tx.workItem',
      '        .updateMany({ where, data });',
      '    });',
      "    await this.sql.query('x', `UPDATE sessions SET title = $1`, [t]);",
      '    await this.db.$executeRaw`DELETE FROM session_events WHERE id = ${id}`;',
      '    await this.db.agent.update({ where, data });',
      '    await this.db.session.findMany({ where });',
      '    // We update sessions here in prose only: tx.session.delete( is not code.',
      '  }',
      '}',
    ].join('\n');
    const found = foreignWrites('control', new Map([['apps/control/src/leaky.ts', source]]), tables);
    expect(found.map((w) => [w.line, w.table, w.owner])).toEqual([
      [3, 'sessions', 'dataplane'],
      [5, 'work_items', 'dataplane'],
      [8, 'sessions', 'dataplane'],
      [9, 'session_events', 'dataplane'],
    ]);
    // The same file is clean for the owner of those tables, apart from the agent it does not own.
    expect(foreignWrites('dataplane', new Map([['x.ts', source]]), tables).map((w) => w.table)).toEqual([
      'agents',
    ]);
  });

  it('reads writes of upserts, inserts and truncates, and ignores reads and unknown names', () => {
    const writes = findTableWrites(
      [
        'tx.usageLedger.upsert({})',
        'INSERT INTO usage_ledger (id) VALUES ($1)',
        'TRUNCATE TABLE audit_log',
        'SELECT * FROM sessions FOR UPDATE OF s SKIP LOCKED',
        'this.files.delete(id)',
      ].join('\n'),
      tables,
    );
    expect(writes.map((w) => [w.line, w.table])).toEqual([
      [1, 'usage_ledger'],
      [2, 'usage_ledger'],
      [3, 'audit_log'],
    ]);
  });

  it('gives a service a client that cannot write the tables of another (checked by the typecheck)', () => {
    type Control = ServiceDatabase<'control'>;
    type Dataplane = ServiceDatabase<'dataplane'>;
    expectTypeOf<Control['session']>().toHaveProperty('findFirst');
    expectTypeOf<Control['agent']>().toHaveProperty('update');
    // Control only reads sessions (the dataplane owns them): it may neither update nor delete them.
    expectTypeOf<Control['session']>().not.toHaveProperty('update');
    expectTypeOf<Control['session']>().not.toHaveProperty('deleteMany');
    expectTypeOf<Dataplane['session']>().toHaveProperty('update');
    // The dataplane only reads agents.
    expectTypeOf<Dataplane['agent']>().not.toHaveProperty('create');
  });
});
