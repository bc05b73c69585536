import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '@agentry/contracts';
import { createTestDatabase, type TestDatabase } from '@agentry/testing';
import { SystemClock } from '@agentry/platform';
import { BudgetAdmission, type CallEstimate } from '../src/budgets/budget-admission.service.js';
import { UsageLedgerRepository } from '../src/budgets/usage-ledger.repository.js';
import { DataplaneEnvSchema } from '../src/config/env.js';
import { SqlPool } from '../src/sql/sql-pool.js';
import { seedSession, type SessionFixture } from './session-fixture.js';

/** scripted: 100 USD per million input tokens, 200 per million output tokens. */
const CALL: CallEstimate = { model: 'scripted', input_tokens: 1_000, output_tokens: 500 }; // 0.2 USD

describe('budget admission against real Postgres', () => {
  let db: TestDatabase;
  let sql: SqlPool;
  let ledger: UsageLedgerRepository;

  const admissionWith = (quotas: Record<string, unknown> = {}) =>
    new BudgetAdmission(
      ledger,
      DataplaneEnvSchema.parse({
        DATABASE_URL: db.url,
        AGENTRY_MODEL_PRICES: JSON.stringify({ scripted: { input: 100, output: 200 } }),
        AGENTRY_TENANT_QUOTAS: JSON.stringify(quotas),
      }),
      new SystemClock(),
    );
  const ownerOf = (s: SessionFixture) => ({ ...s, agentId: 'agent_x' });
  const setBudget = (s: SessionFixture, amount: string | null) =>
    db.prisma.session.update({
      where: { id: s.sessionId },
      data: {
        budget:
          amount === null ? { set: null } : { type: 'limit', max_list_cost: { amount, currency: 'USD' } },
      },
    });

  beforeAll(async () => {
    db = await createTestDatabase();
    sql = new SqlPool({ DATABASE_URL: db.url, AGENTRY_SQL_POOL_SIZE: 8, AGENTRY_SQL_PICKUP_POOL_SIZE: 1 });
    ledger = new UsageLedgerRepository(sql);
  });
  afterAll(async () => {
    await sql?.onApplicationShutdown();
    await db?.drop();
  });

  it('admits concurrent calls only while their reservations fit the session budget', async () => {
    const s = await seedSession(db.prisma);
    await setBudget(s, '1.00');
    const admission = admissionWith();
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, () => admission.reserve(ownerOf(s), CALL)),
    );
    const admitted = results.filter((r) => r.status === 'fulfilled');
    expect(admitted).toHaveLength(5);
    for (const r of results.filter((x) => x.status === 'rejected'))
      expect(AppError.is(r.reason, 'BUDGET_EXCEEDED')).toBe(true);

    // Settling for less than reserved frees the difference; releasing frees all of it.
    const [first, second, ...rest] = admitted.map((r) => r.value);
    await admission.settle(first!, { input_tokens: 100, output_tokens: 50 }); // 0.02 USD
    await admission.release(second!);
    await expect(admission.reserve(ownerOf(s), CALL)).resolves.toMatchObject({ capped: true });
    await expect(admission.reserve(ownerOf(s), CALL)).rejects.toMatchObject({ code: 'BUDGET_EXCEEDED' });
    for (const r of rest) await admission.settle(r, { input_tokens: 1_000, output_tokens: 500 });

    const sums = await db.prisma.usageLedger.groupBy({
      by: ['kind'],
      where: { sessionId: s.sessionId },
      _count: true,
    });
    expect(Object.fromEntries(sums.map((g) => [g.kind, g._count]))).toEqual({
      reservation: 6,
      settlement: 4,
      release: 1,
      refusal: 8,
    });
  });

  it('counts a settled call on the session and on the thread it ran in, in the settlement itself', async () => {
    const s = await seedSession(db.prisma);
    const primary = await db.prisma.session.findUniqueOrThrow({ where: { id: s.sessionId } });
    const threadId = `sthr_${randomUUID().replaceAll('-', '')}`;
    await db.prisma.session.create({
      data: {
        id: threadId,
        tenantId: primary.tenantId,
        namespaceId: primary.namespaceId,
        agentId: primary.agentId,
        agentVersion: 1,
        environmentId: primary.environmentId,
        parentSessionId: primary.id,
      },
    });
    const admission = admissionWith();
    const own = await admission.reserve(ownerOf(s), CALL);
    const settledOwn = await admission.settle(own, { input_tokens: 100, output_tokens: 50 });
    expect(settledOwn).toEqual({
      costMicros: 20_000,
      totals: {
        input_tokens: 100,
        output_tokens: 50,
        cache_read_input_tokens: 0,
        cache_creation_input_tokens: 0,
        list_cost_micros: 20_000,
      },
    });
    const inThread = await admission.reserve({ ...ownerOf(s), threadId }, CALL);
    const settledThread = await admission.settle(inThread, { input_tokens: 10, output_tokens: 5 });
    expect(settledThread.totals).toMatchObject({ input_tokens: 10, output_tokens: 5 });

    const usageOf = async (id: string) =>
      (await db.prisma.session.findUniqueOrThrow({ where: { id } })).usage as Record<string, number>;
    expect(await usageOf(s.sessionId)).toMatchObject({ input_tokens: 110, output_tokens: 55 });
    expect(await usageOf(threadId)).toMatchObject({ input_tokens: 10, output_tokens: 5 });
    // The session's totals are what its ledger holds: both calls were billed to it.
    const ledgered = await db.prisma.usageLedger.aggregate({
      where: { sessionId: s.sessionId, kind: 'settlement' },
      _sum: { inputTokens: true, outputTokens: true },
    });
    expect(ledgered._sum).toEqual({ inputTokens: 110n, outputTokens: 55n });
  });

  it('judges new work against the call a cap refused: refused until the budget is raised or removed', async () => {
    const s = await seedSession(db.prisma);
    await setBudget(s, '0.30');
    const admission = admissionWith();
    const first = await admission.reserve(ownerOf(s), CALL);
    await admission.settle(first, { input_tokens: 1_000, output_tokens: 500 });
    expect(await admission.refusalOfNewWork(ownerOf(s))).toBeNull(); // nothing refused yet
    await expect(admission.reserve(ownerOf(s), CALL)).rejects.toThrow(
      /session's budget of 0\.30 USD is reached: 0\.20 USD is spent/,
    );
    expect(await admission.refusalOfNewWork(ownerOf(s))).toMatchObject({
      scope: 'session',
      message: expect.stringMatching(/Raise or remove/) as unknown,
    });
    await setBudget(s, '0.50');
    expect(await admission.refusalOfNewWork(ownerOf(s))).toBeNull();
    await setBudget(s, '0.35');
    expect(await admission.refusalOfNewWork(ownerOf(s))).not.toBeNull();
    await setBudget(s, null);
    expect(await admission.refusalOfNewWork(ownerOf(s))).toBeNull();
  });

  it('holds a tenant to its daily token quota across its sessions, by tenant slug', async () => {
    const a = await seedSession(db.prisma);
    const slug = (await db.prisma.tenant.findUniqueOrThrow({ where: { id: a.tenantId } })).slug;
    const admission = admissionWith({ [slug]: { daily: { tokens: 4_000 } } });
    const other = { ...ownerOf(a), sessionId: 'sesn_other' };
    const r1 = await admission.reserve(ownerOf(a), CALL);
    await admission.settle(r1, { input_tokens: 1_000, output_tokens: 500 });
    const r2 = await admission.reserve(other, CALL);
    await admission.settle(r2, { input_tokens: 1_000, output_tokens: 500 });
    await expect(admission.reserve(ownerOf(a), CALL)).rejects.toThrow(
      /tenant's daily quota of 4000 tokens is reached: 3000 tokens used this day/,
    );
    // Every session of the tenant is refused new work now, not only the one that hit the quota.
    expect(await admission.refusalOfNewWork({ ...other, sessionId: 'sesn_fresh' })).toMatchObject({
      scope: 'tenant',
    });
    // Another tenant is not affected.
    const b = await seedSession(db.prisma);
    await expect(
      admissionWith({ [slug]: { daily: { tokens: 4_000 } } }).reserve(ownerOf(b), CALL),
    ).resolves.toMatchObject({ capped: false });
  });

  it('reserves a call of an unbudgeted session without the lock that serializes capped calls', async () => {
    const s = await seedSession(db.prisma);
    const admission = admissionWith();
    const holder = await sql.pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`usage:session:${s.sessionId}`]);
      // Nothing to hold against: the call is admitted while another transaction holds the session's lock.
      await expect(admission.reserve(ownerOf(s), CALL)).resolves.toMatchObject({ capped: false });
      // With a budget the call waits for the lock, as concurrent capped calls must.
      await setBudget(s, '1.00');
      let admitted = false;
      const capped = admission.reserve(ownerOf(s), CALL).finally(() => (admitted = true));
      // Seen waiting by Postgres: a session of this database queued behind the held advisory lock.
      await vi.waitFor(async () => {
        const { rows } = await sql.pool.query<{ waiting: number }>(
          `SELECT count(*)::int AS waiting FROM pg_locks
            WHERE locktype = 'advisory' AND NOT granted
              AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        );
        expect(rows[0]!.waiting).toBe(1);
      });
      expect(admitted).toBe(false);
      await holder.query('COMMIT');
      await expect(capped).resolves.toMatchObject({ capped: true });
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      holder.release();
    }
    const kinds = await db.prisma.usageLedger.findMany({
      where: { sessionId: s.sessionId },
      select: { kind: true },
    });
    expect(kinds.map((k) => k.kind)).toEqual(['reservation', 'reservation']);
  });

  it('writes no reservation for a session created without a budget, and still counts its settled calls', async () => {
    const s = await seedSession(db.prisma);
    const admission = admissionWith();
    const call = await admission.reserve(ownerOf(s), CALL, { unbudgeted: true });
    expect(call).toMatchObject({ capped: false, held: false });
    await admission.settle(call, { input_tokens: 1_000, output_tokens: 500 });
    const failed = await admission.reserve(ownerOf(s), CALL, { unbudgeted: true });
    await admission.release(failed);
    const kinds = await db.prisma.usageLedger.findMany({
      where: { sessionId: s.sessionId },
      select: { kind: true },
    });
    expect(kinds.map((k) => k.kind)).toEqual(['settlement']);
    const spend = await ledger.spend(s.tenantId, s.sessionId, {
      dayStart: new Date(0),
      monthStart: new Date(0),
    });
    expect(spend.monthCostMicros).toBe(200_000);
    // Under a tenant quota every call still reserves: the quota is judged against what is held.
    const quoted = admissionWith({ '*': { daily: { tokens: 1_000_000 } } });
    await expect(quoted.reserve(ownerOf(s), CALL, { unbudgeted: true })).resolves.toMatchObject({
      held: true,
    });
  });
});
