import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, handsDurableRoots, ID_PREFIXES, newId } from '@agentry/contracts';
import { createTestDatabase, pollUntil, type TestDatabase } from '@agentry/testing';
import {
  SessionEventsRepository,
  type NewEvent,
  type StatusChange,
} from '../src/event-log/session-events.repository.js';
import { SessionStateRepository } from '../src/sessions/session-state.repository.js';
import { SqlPool } from '../src/sql/sql-pool.js';
import { EventLogSessionLogs } from '../src/agent-harness/event-log-session-logs.js';
import { createSessionSearchTool } from '@agentry/harness';
import { seedSession, type SessionFixture } from './session-fixture.js';

const message = (text: string): NewEvent => ({
  id: newId(ID_PREFIXES.sessionEvent),
  type: 'user.message',
  payload: { content: [{ type: 'text', text }] },
  processed: false,
});

describe('event log and session state against real Postgres', () => {
  let db: TestDatabase;
  let events: SessionEventsRepository;
  let state: SessionStateRepository;
  let s: SessionFixture;
  let sql: SqlPool;
  const statusEvent = (type: string): NewEvent => ({
    id: newId(ID_PREFIXES.sessionEvent),
    type,
    payload: {},
    processed: true,
  });
  const change = (
    from: string[],
    to: string,
    stopReason: Record<string, unknown> | null = null,
  ): StatusChange => ({
    from,
    to,
    stopReason,
    consume: [],
  });

  beforeAll(async () => {
    db = await createTestDatabase();
    sql = new SqlPool({ DATABASE_URL: db.url, AGENTRY_SQL_POOL_SIZE: 5, AGENTRY_SQL_PICKUP_POOL_SIZE: 1 });
    events = new SessionEventsRepository(sql);
    state = new SessionStateRepository(sql);
    s = await seedSession(db.prisma);
  });
  afterAll(async () => {
    await sql?.onApplicationShutdown();
    await db?.drop();
  });

  it('gives concurrent appenders gap-free, duplicate-free seq numbers', async () => {
    const client = { kind: 'client' as const, tenantId: s.tenantId, namespaceId: s.namespaceId };
    const batches = Array.from({ length: 25 }, (_, i) =>
      Array.from({ length: 4 }, (_, j) => message(`${i}-${j}`)),
    );
    await Promise.all(batches.map((batch) => events.append(s.sessionId, client, batch)));
    const rows = await events.all(s.sessionId);
    expect(rows.map((r) => Number(r.seq))).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    // A batch is contiguous: its four events were appended in one transaction.
    const byBatch = new Map<string, number[]>();
    for (const row of rows) {
      const text = (row.payload as { content: Array<{ text: string }> }).content[0]!.text;
      const key = text.split('-')[0]!;
      byBatch.set(key, [...(byBatch.get(key) ?? []), Number(row.seq)]);
    }
    for (const seqs of byBatch.values()) expect(seqs[3]! - seqs[0]!).toBe(3);
    const session = await state.find(s.sessionId);
    expect(session?.lastSeq).toBe(100);
  });

  it('rejects an append from another namespace and writes nothing', async () => {
    const before = (await events.all(s.sessionId)).length;
    const stranger = { kind: 'client' as const, tenantId: s.tenantId, namespaceId: 'ns_other' };
    await expect(events.append(s.sessionId, stranger, [message('x')])).rejects.toSatisfy((e) =>
      AppError.is(e, 'NOT_FOUND'),
    );
    expect((await events.all(s.sessionId)).length).toBe(before);
  });

  it('fences a stale lease holder out of appends and status changes', async () => {
    const first = (await state.acquire(s.sessionId, 'runner-a', 1_000))!.lease;
    expect(first).toBeDefined();
    expect(await state.acquire(s.sessionId, 'runner-b', 1_000)).toBeNull();
    // Taken once the 1 s lease runs out by Postgres' clock.
    const second = (
      await pollUntil('the lease to expire and be taken', () => state.acquire(s.sessionId, 'runner-b', 5_000))
    ).lease;
    expect(second.token).toBeGreaterThan(first.token);

    const stale = { kind: 'turn' as const, tenantId: s.tenantId, token: first.token };
    const before = (await events.all(s.sessionId)).length;
    await expect(events.append(s.sessionId, stale, [message('late')])).rejects.toSatisfy((e) =>
      AppError.is(e, 'CONFLICT'),
    );
    expect((await events.all(s.sessionId)).length).toBe(before);
    expect(
      await events.appendWithTransition(s.sessionId, first, change(['idle'], 'running'), [
        statusEvent('session.status_running'),
      ]),
    ).toBeNull();
    expect((await events.all(s.sessionId)).length).toBe(before);
    expect(await state.renew(first, 1_000)).toBe(false);

    expect(
      await events.appendWithTransition(s.sessionId, second, change(['idle'], 'running'), [
        statusEvent('session.status_running'),
      ]),
    ).toHaveLength(1);
    // Compare-and-set: the status is no longer idle, so the same transition does nothing.
    expect(
      await events.appendWithTransition(s.sessionId, second, change(['idle'], 'running'), [
        statusEvent('session.status_running'),
      ]),
    ).toBeNull();
    const idle = await events.appendWithTransition(
      s.sessionId,
      second,
      change(['running'], 'idle', { type: 'end_turn' }),
      [statusEvent('session.status_idle')],
    );
    expect(idle!.map((e) => e.seq)).toEqual([before + 2]);
    const row = await db.prisma.session.findUniqueOrThrow({ where: { id: s.sessionId } });
    expect(row.stopReason).toEqual({ type: 'end_turn' });
    expect(row.status).toBe('idle');
    await state.release(second);
    expect(await state.acquire(s.sessionId, 'runner-c', 1_000)).not.toBeNull();
  });

  it('writes a transition, its events and the consumed inbox in one statement', async () => {
    const other = await seedSession(db.prisma);
    const client = { kind: 'client' as const, tenantId: other.tenantId, namespaceId: other.namespaceId };
    const [input] = await events.append(other.sessionId, client, [message('hi')]);
    const lease = (await state.acquire(other.sessionId, 'runner', 5_000))!.lease;
    const start = { ...change(['idle'], 'running'), consume: [input!.id] };
    const started = await events.appendWithTransition(other.sessionId, lease, start, [
      statusEvent('session.status_running'),
      statusEvent('span.model_request_start'),
    ]);
    expect(started!.map((e) => e.seq)).toEqual([2, 3]);
    expect(await events.inbox(other.sessionId)).toEqual([]);
    for (let i = 0; i < 2; i += 1) {
      await events.appendWithTransition(other.sessionId, lease, change(['running', 'idle'], 'idle'), [
        statusEvent('session.status_idle'),
      ]);
    }
    const row = await db.prisma.session.findUniqueOrThrow({ where: { id: other.sessionId } });
    expect(row.status).toBe('idle');
    expect(Number(row.lastSeq)).toBe(5);
  });

  it('keeps inbound events in the inbox until a turn consumes them', async () => {
    const other = await seedSession(db.prisma);
    const client = { kind: 'client' as const, tenantId: other.tenantId, namespaceId: other.namespaceId };
    const [a, b] = await events.append(other.sessionId, client, [message('a'), message('b')]);
    expect((await events.inbox(other.sessionId)).map((r) => r.id)).toEqual([a!.id, b!.id]);
    await events.markProcessed(other.sessionId, [a!.id]);
    expect((await events.inbox(other.sessionId)).map((r) => r.id)).toEqual([b!.id]);
  });

  it("serves session_search from the event log of the agent's sessions, and only its tenant's", async () => {
    const mine = await seedSession(db.prisma);
    const theirs = await seedSession(db.prisma);
    const agentId = (await db.prisma.session.findUniqueOrThrow({ where: { id: mine.sessionId } })).agentId;
    await events.append(
      mine.sessionId,
      { kind: 'client', tenantId: mine.tenantId, namespaceId: mine.namespaceId },
      [message('the launch code is pelican')],
    );
    await events.append(
      theirs.sessionId,
      { kind: 'client', tenantId: theirs.tenantId, namespaceId: theirs.namespaceId },
      [message('pelican for someone else')],
    );
    const search = createSessionSearchTool(new EventLogSessionLogs(events, mine.tenantId));
    const context = { sessionId: mine.sessionId, agentId } as Parameters<typeof search.execute>[1];
    const found = await search.execute({ query: 'pelican' }, context);
    const text = JSON.stringify(found);
    expect(text).toContain('the launch code is pelican');
    expect(text).toContain(mine.sessionId);
    expect(text).not.toContain('someone else');
  });

  it('hands the turn what it needs of the row with the lease: lost environment or agent, budget and usage', async () => {
    const fresh = await seedSession(db.prisma);
    const row = await db.prisma.session.findUniqueOrThrow({ where: { id: fresh.sessionId } });
    const take = async () => {
      const acquired = (await state.acquire(fresh.sessionId, 'runner', 5_000))!;
      await state.release(acquired.lease);
      return acquired.facts;
    };
    expect(await take()).toEqual({
      lost: null,
      account: { budget: null, usage: {} },
      hasResources: false,
      hasVaults: false,
      openOutcome: false,
      workspaceEmpty: true,
    });
    await db.prisma.session.update({
      where: { id: fresh.sessionId },
      data: { budget: { type: 'limit', max_list_cost: { amount: '2.00', currency: 'USD' } } } as never,
    });
    expect((await take()).account.budget).toMatchObject({ max_list_cost: { amount: '2.00' } });
    // An outcome still being worked on is graded at the turn's end; a settled one is not.
    const outcome = (result: string) => [{ outcome_id: 'outc_1', result }];
    await db.prisma.session.update({
      where: { id: fresh.sessionId },
      data: { outcomeEvaluations: outcome('running') },
    });
    expect((await take()).openOutcome).toBe(true);
    await db.prisma.session.update({
      where: { id: fresh.sessionId },
      data: { outcomeEvaluations: outcome('satisfied') },
    });
    expect((await take()).openOutcome).toBe(false);
    await db.prisma.session.update({
      where: { id: fresh.sessionId },
      data: { resources: [{ type: 'file', id: 'sesrsc_1', file_id: 'file_1' }] },
    });
    expect((await take()).hasResources).toBe(true);
    await db.prisma.session.update({ where: { id: fresh.sessionId }, data: { vaultIds: ['vlt_1'] } });
    expect((await take()).hasVaults).toBe(true);
    // An entry anywhere in the durable Hands copy, its shell state included, and the workspace is not empty.
    const { shellState } = handsDurableRoots(fresh.tenantId, fresh.sessionId);
    await db.prisma.handsWorkspaceFile.create({
      data: { tenantId: fresh.tenantId, root: shellState, path: '/env', parent: '/', kind: 'file', size: 0n },
    });
    expect((await take()).workspaceEmpty).toBe(false);
    await db.prisma.agent.update({ where: { id: row.agentId }, data: { archivedAt: new Date() } });
    expect((await take()).lost).toEqual({ kind: 'agent', id: row.agentId, state: 'archived' });
    await db.prisma.environment.update({
      where: { id: row.environmentId },
      data: { archivedAt: new Date() },
    });
    expect((await take()).lost).toEqual({ kind: 'environment', id: row.environmentId, state: 'archived' });
  });
});
