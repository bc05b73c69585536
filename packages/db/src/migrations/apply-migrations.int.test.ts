import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseAdmin, databaseUrlFor } from '../admin/database-admin.js';
import { createPrismaClient } from '../client/prisma-client.factory.js';
import { runInTransaction } from '../client/transaction.js';
import { isUniqueViolation } from '../errors/prisma-errors.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { applyMigrations } from './apply-migrations.js';
import { MigrationError } from './migration.error.js';
import { migrationsDir } from './migration-paths.js';
import { createSqlPool } from '../client/sql-pool.factory.js';

const baseUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const dbName = `agentry_t_db_${randomBytes(5).toString('hex')}`;
const url = databaseUrlFor(baseUrl, dbName);

const EXPECTED_TABLES = [
  'agent_shares',
  'agent_versions',
  'agents',
  'api_keys',
  'audit_log',
  'dataplane_replicas',
  'deployment_runs',
  'deployments',
  'dreams',
  'environment_builds',
  'environment_keys',
  'environments',
  'files',
  'hands_workspace_chunks',
  'hands_workspace_fences',
  'hands_workspace_files',
  'idempotency_keys',
  'memories',
  'memory_stores',
  'memory_versions',
  'multiagent_runs',
  'namespace_members',
  'namespaces',
  'session_checkpoint_blobs',
  'session_checkpoint_files',
  'session_checkpoints',
  'session_event_keys',
  'session_events',
  'session_replay_batches',
  'session_replays',
  'session_resource_tokens',
  'session_threads',
  'sessions',
  'skill_versions',
  'skills',
  'tenants',
  'usage_ledger',
  'users',
  'vault_credentials',
  'vaults',
  'webhook_deliveries',
  'webhook_delivery_attempts',
  'webhooks',
  'work_items',
  'workers',
  'workflow_runs',
  'workspace_files',
];

let admin: DatabaseAdmin;
let prisma: PrismaClient;

beforeAll(async () => {
  admin = await DatabaseAdmin.connect(baseUrl);
  await admin.createDatabase(dbName);
  await applyMigrations(url);
  prisma = createPrismaClient(url);
  await seedSession(prisma);
});

afterAll(async () => {
  await prisma?.$disconnect();
  await admin?.dropDatabase(dbName);
  await admin?.close();
});

describe('applyMigrations on a fresh database', () => {
  it('creates every table of the schema, snake_case', async () => {
    const rows = await prisma.$queryRaw<{ table_name: string }[]>`
      SELECT table_name::text FROM information_schema.tables
      WHERE table_schema = 'public' AND table_name <> '_prisma_migrations' ORDER BY table_name`;
    expect(rows.map((r) => r.table_name)).toEqual([...EXPECTED_TABLES].sort());
  });

  it('indexes only the unprocessed inbox rows', async () => {
    const rows = await prisma.$queryRaw<{ indexdef: string }[]>`
      SELECT indexdef FROM pg_indexes WHERE indexname = 'session_events_inbox_idx'`;
    expect(rows[0]?.indexdef).toMatch(/WHERE \(processed_at IS NULL\)/);
  });

  it('is a no-op when run again', async () => {
    await applyMigrations(url);
    const [row] = await prisma.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM _prisma_migrations`;
    expect(Number(row?.n)).toBeGreaterThanOrEqual(1);
    expect(await prisma.session.count()).toBe(1);
  });

  it('fails with the CLI output when the database does not exist', async () => {
    const error = await applyMigrations(databaseUrlFor(baseUrl, `${dbName}_missing`)).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as MigrationError).output).toMatch(/does not exist|P1003/);
  });
});

describe('hands workspace files', () => {
  it('moves the Hands workspaces out of workspace_files, every row and column, and leaves the others', async () => {
    const sql = createSqlPool(url, 1);
    try {
      // The database as it was before the migration, with rows of each kind of root.
      await sql.query('DROP TABLE hands_workspace_files');
      const rows: [string, string, string, string, string | null][] = [
        ['tenants/t1/hands/sessions/sesn_1', 'src', '', 'dir', null],
        ['tenants/t1/hands/sessions/sesn_1', 'src/main.py', 'src', 'file', 'print(1)'],
        ['tenants/t2/hands/sessions/sesn_2', 'notes.md', '', 'file', 'notes'],
        ['tenants/t1/agents/agent_1/shared', 'AGENTS.md', '', 'file', 'be brief'],
        ['tenants/t1/agents/hands/shared', 'AGENTS.md', '', 'file', 'an agent called hands'],
        ['tenants/t1/agents/agent_1/sessions/sesn_1', 'plan.md', '', 'file', 'plan'],
      ];
      for (const [root, path, parent, kind, content] of rows)
        await sql.query(
          `INSERT INTO workspace_files (tenant_id, root, path, parent, kind, content, size, version, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, 7, '2026-01-02T03:04:05.678Z')`,
          [
            root.split('/')[1],
            root,
            path,
            parent,
            kind,
            content && Buffer.from(content),
            content?.length ?? 0,
          ],
        );
      const columns = 'tenant_id, root, path, parent, kind, content, size, version, created_at, updated_at';
      const before = await sql.query<{ root: string }>(
        `SELECT ${columns} FROM workspace_files ORDER BY root, path`,
      );

      const migration = readFileSync(
        join(migrationsDir(), '20261202110000_hands_workspace_files', 'migration.sql'),
        'utf8',
      );
      await sql.query(migration);

      const moved = await sql.query(`SELECT ${columns} FROM hands_workspace_files ORDER BY root, path`);
      const kept = await sql.query(`SELECT ${columns} FROM workspace_files ORDER BY root, path`);
      const isHands = (r: { root: string }) => /^tenants\/[^/]+\/hands\//.test(r.root);
      expect(moved.rows).toEqual(before.rows.filter(isHands));
      expect(moved.rows).toHaveLength(3);
      expect(kept.rows).toEqual(before.rows.filter((r) => !isHands(r)));
      expect(kept.rows.map((r: { root: string }) => r.root)).toContain('tenants/t1/agents/hands/shared');
    } finally {
      await sql.end();
    }
  });
});

describe('DatabaseAdmin', () => {
  it('refuses a database name that is not a plain identifier', async () => {
    await expect(admin.createDatabase('x"; DROP DATABASE postgres; --')).rejects.toThrow(
      /unsafe database name/,
    );
    expect(await admin.databaseExists(dbName)).toBe(true);
    expect(await admin.listDatabases(dbName)).toContain(dbName);
  });
});

describe('session events', () => {
  it('rejects a second event with the same (session_id, seq)', async () => {
    await prisma.sessionEvent.create({ data: event('sevt_a', 1n) });
    const error = await prisma.sessionEvent.create({ data: event('sevt_b', 1n) }).catch((e: unknown) => e);
    expect(isUniqueViolation(error, ['session_id', 'seq'])).toBe(true);
    expect(isUniqueViolation(error, ['id'])).toBe(false);
    expect(await prisma.sessionEvent.count({ where: { sessionId: 'sesn_1' } })).toBe(1);
  });

  it('commits a batch all-or-nothing in a transaction', async () => {
    const attempt = runInTransaction(prisma, async (tx) => {
      await tx.sessionEvent.create({ data: event('sevt_c', 2n) });
      await tx.sessionEvent.create({ data: event('sevt_d', 1n) }); // duplicate seq: the batch fails
    });
    await expect(attempt).rejects.toSatisfy((e) => isUniqueViolation(e, ['session_id', 'seq']));
    expect(await prisma.sessionEvent.findUnique({ where: { id: 'sevt_c' } })).toBeNull();

    await runInTransaction(prisma, async (tx) => {
      await tx.sessionEvent.create({ data: event('sevt_e', 2n) });
      await tx.session.update({ where: { id: 'sesn_1' }, data: { lastSeq: 2n } });
    });
    const session = await prisma.session.findUniqueOrThrow({ where: { id: 'sesn_1' } });
    expect(session.lastSeq).toBe(2n);
    expect(session.status).toBe('idle');
  });
});

function event(id: string, seq: bigint) {
  return {
    id,
    tenantId: 'tenant_1',
    sessionId: 'sesn_1',
    seq,
    type: 'user.message',
    payload: { content: [] },
  };
}

async function seedSession(client: PrismaClient): Promise<void> {
  const scope = { tenantId: 'tenant_1', namespaceId: 'ns_1' };
  await client.tenant.create({ data: { id: 'tenant_1', name: 'Acme', slug: 'acme' } });
  await client.namespace.create({
    data: { id: 'ns_1', tenantId: 'tenant_1', name: 'Default', slug: 'default' },
  });
  await client.agent.create({ data: { id: 'agent_1', ...scope, name: 'a' } });
  await client.environment.create({ data: { id: 'env_1', ...scope, name: 'e', type: 'local' } });
  await client.session.create({
    data: { id: 'sesn_1', ...scope, agentId: 'agent_1', agentVersion: 1, environmentId: 'env_1' },
  });
}
