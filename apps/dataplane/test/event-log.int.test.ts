import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, ID_PREFIXES, newId } from '@agentry/contracts';
import { createTestDatabase, type TestDatabase } from '@agentry/testing';
import { SessionEventsRepository, type NewEvent } from '../src/events/session-events.repository.js';
import { SessionStateRepository } from '../src/sessions/session-state.repository.js';
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

  beforeAll(async () => {
    db = await createTestDatabase();
    events = new SessionEventsRepository(db.prisma);
    state = new SessionStateRepository(db.prisma);
    s = await seedSession(db.prisma);
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('gives concurrent appenders gap-free, duplicate-free seq numbers', async () => {
    const client = { kind: 'client' as const, tenantId: s.tenantId, namespaceId: s.namespaceId };
    const batches = Array.from({ length: 25 }, (_, i) => Array.from({ length: 4 }, (_, j) => message(`${i}-${j}`)));
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
    expect(Number(session?.lastSeq)).toBe(100);
  });

  it('rejects an append from another namespace and writes nothing', async () => {
    const before = (await events.all(s.sessionId)).length;
    const stranger = { kind: 'client' as const, tenantId: s.tenantId, namespaceId: 'ns_other' };
    await expect(events.append(s.sessionId, stranger, [message('x')])).rejects.toSatisfy((e) => AppError.is(e, 'NOT_FOUND'));
    expect((await events.all(s.sessionId)).length).toBe(before);
  });

  it('fences a stale lease holder out of appends and status changes', async () => {
    const first = await state.acquire(s.sessionId, 'runner-a', 1_000);
    expect(first).not.toBeNull();
    expect(await state.acquire(s.sessionId, 'runner-b', 1_000)).toBeNull();
    await new Promise((r) => setTimeout(r, 1_100));
    const second = await state.acquire(s.sessionId, 'runner-b', 5_000);
    expect(second!.token).toBeGreaterThan(first!.token);

    const stale = { kind: 'turn' as const, tenantId: s.tenantId, token: first!.token };
    const before = (await events.all(s.sessionId)).length;
    await expect(events.append(s.sessionId, stale, [message('late')])).rejects.toSatisfy((e) => AppError.is(e, 'CONFLICT'));
    expect((await events.all(s.sessionId)).length).toBe(before);
    expect(await db.prisma.$transaction((tx) => state.transition(tx, first!, ['idle'], 'running', null))).toBe(false);
    expect(await state.renew(first!, 1_000)).toBe(false);

    expect(await db.prisma.$transaction((tx) => state.transition(tx, second!, ['idle'], 'running', null))).toBe(true);
    // Compare-and-set: the status is no longer idle, so the same transition does nothing.
    expect(await db.prisma.$transaction((tx) => state.transition(tx, second!, ['idle'], 'running', null))).toBe(false);
    expect(await db.prisma.$transaction((tx) => state.transition(tx, second!, ['running'], 'idle', { type: 'end_turn' }))).toBe(true);
    expect((await state.find(s.sessionId))?.stopReason).toEqual({ type: 'end_turn' });
    await state.release(second!);
    expect(await state.acquire(s.sessionId, 'runner-c', 1_000)).not.toBeNull();
  });

  it('keeps inbound events in the inbox until a turn consumes them', async () => {
    const other = await seedSession(db.prisma);
    const client = { kind: 'client' as const, tenantId: other.tenantId, namespaceId: other.namespaceId };
    const [a, b] = await events.append(other.sessionId, client, [message('a'), message('b')]);
    expect((await events.inbox(other.sessionId)).map((r) => r.id)).toEqual([a!.id, b!.id]);
    await db.prisma.$transaction((tx) => events.markProcessed(tx, other.sessionId, [a!.id]));
    expect((await events.inbox(other.sessionId)).map((r) => r.id)).toEqual([b!.id]);
  });
});
