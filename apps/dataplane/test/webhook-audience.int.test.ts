import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ID_PREFIXES, newId, PubSubjects } from '@agentry/contracts';
import { createLogger, ManualClock, NatsBus } from '@agentry/platform';
import {
  createTestDatabase,
  pollUntil,
  testNatsUrl,
  testSubjectPrefix,
  type TestDatabase,
} from '@agentry/testing';
import { WEBHOOK_AUDIENCE_KEEP_MS, WebhookAudience } from '../src/event-log/webhook-audience.js';
import { SqlPool } from '../src/sql/sql-pool.js';
import { seedSession, type SessionFixture } from './session-fixture.js';

describe('whether a session has webhook endpoints to queue its events for', () => {
  let db: TestDatabase;
  let sql: SqlPool;
  let bus: NatsBus;
  let audience: WebhookAudience;
  const clock = new ManualClock(Date.parse('2026-12-01T00:00:00Z'));

  beforeAll(async () => {
    db = await createTestDatabase();
    sql = new SqlPool({ DATABASE_URL: db.url, AGENTRY_SQL_POOL_SIZE: 2, AGENTRY_SQL_PICKUP_POOL_SIZE: 1 });
    bus = await NatsBus.connect(testNatsUrl(), testSubjectPrefix(), 'webhook-audience-test');
    audience = new WebhookAudience(sql, bus, clock, createLogger('test', 'error'));
    audience.onModuleInit();
  });
  afterAll(async () => {
    audience?.onModuleDestroy();
    await bus?.close();
    await sql?.onApplicationShutdown();
    await db?.drop();
  });

  async function addEndpoint(
    s: SessionFixture,
    fields: { namespaceId?: string; enabled?: boolean } = {},
  ): Promise<void> {
    const id = newId(ID_PREFIXES.webhook);
    await db.prisma.webhook.create({
      data: {
        id,
        tenantId: s.tenantId,
        namespaceId: fields.namespaceId ?? s.namespaceId,
        url: 'https://hooks.example.com/agentry',
        eventTypes: ['session.status_idled'],
        secretCiphertext: Buffer.from('x'),
        secretIv: Buffer.from('x'),
        secretTag: Buffer.from('x'),
        enabled: fields.enabled ?? true,
      },
    });
  }

  it('finds none for a namespace without endpoints, and one as soon as an endpoint is announced', async () => {
    const s = await seedSession(db.prisma);
    expect(await audience.hasEndpoints(s.sessionId)).toBe(false);

    await addEndpoint(s);
    // Kept: the table is not asked again for every event.
    expect(await audience.hasEndpoints(s.sessionId)).toBe(false);
    bus.publish(PubSubjects.webhooksChanged, {});
    await pollUntil('the announced endpoint', () => audience.hasEndpoints(s.sessionId), 5_000, {
      everyMs: 10,
    });
  });

  it('counts neither a disabled endpoint nor one of another namespace', async () => {
    const s = await seedSession(db.prisma);
    const other = await seedSession(db.prisma);
    await addEndpoint(s, { enabled: false });
    await addEndpoint(s, { namespaceId: other.namespaceId });
    expect(await audience.hasEndpoints(s.sessionId)).toBe(false);
  });

  it('asks again once the kept answer is older than the keep time, announcement or not', async () => {
    const s = await seedSession(db.prisma);
    expect(await audience.hasEndpoints(s.sessionId)).toBe(false);
    await addEndpoint(s);
    clock.advance(WEBHOOK_AUDIENCE_KEEP_MS - 1);
    expect(await audience.hasEndpoints(s.sessionId)).toBe(false);
    clock.advance(1);
    expect(await audience.hasEndpoints(s.sessionId)).toBe(true);
  });

  it('keeps no answer that was asked before an announcement and came back after it', async () => {
    const s = await seedSession(db.prisma);
    const asked = audience.hasEndpoints(s.sessionId);
    audience.forget();
    await addEndpoint(s);
    // The answer in flight may predate the endpoint; the next question goes to the table.
    await asked;
    expect(await audience.hasEndpoints(s.sessionId)).toBe(true);
  });
});
