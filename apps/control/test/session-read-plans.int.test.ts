import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { ID_PREFIXES, newId, type Actor } from '@agentry/contracts';
import { createPrismaClient, type PrismaClient, type ServiceDatabase } from '@agentry/db';
import type { RpcClient } from '@agentry/platform';
import { createTestDatabase, scansOf, type TestDatabase } from '@agentry/testing';
import { SessionResourcesRepository } from '../src/session-resources/session-resources.repository.js';
import { SessionsRepository } from '../src/sessions/sessions.repository.js';
import { SessionCredentialsRepository } from '../src/vaults/session-credentials.repository.js';

/**
 * Control's reads of one session find its row by primary key, however many sessions share its namespace
 * and whatever the planner's statistics say (docs/performance.md, "A session's row by its primary key").
 */
describe('session read plans', () => {
  const NAMESPACE_SESSIONS = 400;
  let db: TestDatabase;
  let prisma: PrismaClient;
  let explainer: pg.Client;
  const sent: Array<{ sql: string; params: unknown[] }> = [];
  let actor: Actor;
  let sessionId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    prisma = createPrismaClient(db.url, { onQuery: (query) => sent.push(query) });
    explainer = new pg.Client({ connectionString: db.url });
    await explainer.connect();
    const tenantId = newId(ID_PREFIXES.tenant);
    const namespaceId = newId(ID_PREFIXES.namespace);
    const agentId = newId(ID_PREFIXES.agent);
    const environmentId = newId(ID_PREFIXES.environment);
    await db.prisma.tenant.create({ data: { id: tenantId, name: 't', slug: tenantId.toLowerCase() } });
    await db.prisma.namespace.create({ data: { id: namespaceId, tenantId, name: 'n', slug: 'n' } });
    await db.prisma.agent.create({ data: { id: agentId, tenantId, namespaceId, name: 'a' } });
    await db.prisma.environment.create({
      data: { id: environmentId, tenantId, namespaceId, name: 'e', type: 'local' },
    });
    const ids = Array.from({ length: NAMESPACE_SESSIONS }, () => newId(ID_PREFIXES.session));
    await db.prisma.session.createMany({
      data: ids.map((id) => ({ id, tenantId, namespaceId, agentId, agentVersion: 1, environmentId })),
    });
    sessionId = ids[0]!;
    actor = { tenantId, namespaceId } as Actor;
  });
  afterAll(async () => {
    await explainer?.end();
    await prisma?.$disconnect();
    await db?.drop();
  });

  async function scansOfSessions(): Promise<string[]> {
    const scans: string[] = [];
    for (const { sql, params } of sent.filter((q) => q.sql.includes('"sessions"')))
      scans.push(...(await scansOf(explainer, 'sessions', sql, params)));
    return scans;
  }

  async function readTheSession(): Promise<void> {
    const database = prisma as unknown as ServiceDatabase<'control'>;
    const rpc = {} as RpcClient;
    sent.length = 0;
    expect(await new SessionsRepository(database, rpc).find(actor, sessionId)).toMatchObject({
      id: sessionId,
    });
    const resources = new SessionResourcesRepository(database, rpc);
    expect(await resources.findSession(actor, sessionId)).toMatchObject({ id: sessionId });
    expect(await resources.findSessionOfTenant(actor.tenantId, sessionId)).not.toBeNull();
    expect(await new SessionCredentialsRepository(database).vaultIdsOf(actor.tenantId, sessionId)).toEqual(
      [],
    );
  }

  it('reads by primary key with the statistics of a table that was empty when last looked at', async () => {
    await readTheSession();
    const scans = await scansOfSessions();
    expect(scans).toHaveLength(4);
    expect(scans.filter((scan) => !/^Index (Only )?Scan sessions_pkey$/.test(scan))).toEqual([]);
  });

  it('reads by primary key after the statistics were taken', async () => {
    await db.prisma.$executeRawUnsafe('ANALYZE sessions');
    await readTheSession();
    const scans = await scansOfSessions();
    expect(scans).toHaveLength(4);
    expect(scans.filter((scan) => !/^Index (Only )?Scan sessions_pkey$/.test(scan))).toEqual([]);
  });

  it('does not return a session to another tenant or namespace', async () => {
    const database = prisma as unknown as ServiceDatabase<'control'>;
    const stranger = { tenantId: actor.tenantId, namespaceId: newId(ID_PREFIXES.namespace) } as Actor;
    expect(await new SessionsRepository(database, {} as RpcClient).find(stranger, sessionId)).toBeNull();
    const resources = new SessionResourcesRepository(database, {} as RpcClient);
    expect(await resources.findSession(stranger, sessionId)).toBeNull();
    expect(await resources.findSessionOfTenant(newId(ID_PREFIXES.tenant), sessionId)).toBeNull();
    expect(
      await new SessionCredentialsRepository(database).vaultIdsOf(newId(ID_PREFIXES.tenant), sessionId),
    ).toBeNull();
  });
});
