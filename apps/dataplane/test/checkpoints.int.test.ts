import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handsDurableRoots, ID_PREFIXES, newId } from '@agentry/contracts';
import { createTestDatabase, type TestDatabase } from '@agentry/testing';
import { CheckpointsRepository } from '../src/checkpoints/checkpoints.repository.js';
import { SessionEventsRepository, type NewEvent } from '../src/event-log/session-events.repository.js';
import { SessionStateRepository } from '../src/sessions/session-state.repository.js';
import { SqlPool } from '../src/sql/sql-pool.js';
import { seedSession, type SessionFixture } from './session-fixture.js';

describe('checkpoints of a session against real Postgres', () => {
  let db: TestDatabase;
  let sql: SqlPool;
  let checkpoints: CheckpointsRepository;
  let events: SessionEventsRepository;
  let state: SessionStateRepository;
  let seq = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    sql = new SqlPool({ DATABASE_URL: db.url, AGENTRY_SQL_POOL_SIZE: 3, AGENTRY_SQL_PICKUP_POOL_SIZE: 1 });
    checkpoints = new CheckpointsRepository(sql);
    events = new SessionEventsRepository(sql);
    state = new SessionStateRepository(sql);
  });
  afterAll(async () => {
    await sql?.onApplicationShutdown();
    await db?.drop();
  });

  /** A closing event in the session's log, as a turn's last write commits it. */
  async function closingEvent(s: SessionFixture): Promise<string> {
    const id = newId(ID_PREFIXES.sessionEvent);
    seq += 1;
    await db.prisma.sessionEvent.create({
      data: {
        id,
        tenantId: s.tenantId,
        sessionId: s.sessionId,
        seq,
        type: 'session.status_idle',
        payload: {},
        processedAt: new Date(),
      },
    });
    return id;
  }

  async function writeFile(s: SessionFixture, path: string, content: string): Promise<void> {
    const root = handsDurableRoots(s.tenantId, s.sessionId).workspace;
    const data = { content: Buffer.from(content), size: BigInt(content.length) };
    await db.prisma.handsWorkspaceFile.upsert({
      where: { root_path: { root, path } },
      create: { tenantId: s.tenantId, root, path, parent: '/', kind: 'file', mode: 0o755, ...data },
      update: data,
    });
  }

  async function takeCheckpoint(s: SessionFixture, keep = 100): Promise<string> {
    const id = newId(ID_PREFIXES.checkpoint);
    await checkpoints.capture(s.tenantId, s.sessionId, id);
    await checkpoints.sealAndPrune(id, await closingEvent(s), keep);
    return id;
  }

  it('takes a checkpoint of a session that never ran a tool: sealed, with no entries', async () => {
    const s = await seedSession(db.prisma);
    const id = await takeCheckpoint(s);
    const [row] = await checkpoints.list(s.sessionId, 10);
    expect(row).toMatchObject({ id, seq });
    expect(await db.prisma.sessionCheckpointFile.count({ where: { checkpointId: id } })).toBe(0);
  });

  it("stores the workspace's entries with their mode and each content once per tenant", async () => {
    const s = await seedSession(db.prisma);
    await writeFile(s, '/run.sh', '#!/bin/sh\necho hi\n');
    const first = await takeCheckpoint(s);
    await writeFile(s, '/notes.txt', 'v1');
    const second = await takeCheckpoint(s);

    const entries = await db.prisma.sessionCheckpointFile.findMany({
      where: { checkpointId: second },
      orderBy: { path: 'asc' },
    });
    expect(entries.map((e) => [e.path, e.mode])).toEqual([
      ['/notes.txt', 0o755],
      ['/run.sh', 0o755],
    ]);
    const blobs = await db.prisma.sessionCheckpointBlob.findMany({ where: { tenantId: s.tenantId } });
    expect(blobs.map((b) => Buffer.from(b.content).toString()).sort()).toEqual([
      '#!/bin/sh\necho hi\n',
      'v1',
    ]);
    // Every hash an entry names is stored.
    const named = (
      await db.prisma.sessionCheckpointFile.findMany({ where: { checkpointId: first } })
    ).flatMap((e) => e.blobs);
    expect(named.every((hash) => blobs.some((b) => b.hash === hash))).toBe(true);
  });

  it('keeps the newest sealed checkpoints of a session, as many as asked', async () => {
    const s = await seedSession(db.prisma);
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push(await takeCheckpoint(s, 3));
    expect((await checkpoints.list(s.sessionId, 10)).map((c) => c.id)).toEqual(ids.slice(2));
  });

  it('seals nothing and prunes nothing when the closing event is not in the log', async () => {
    const s = await seedSession(db.prisma);
    const kept = await takeCheckpoint(s, 1);
    const id = newId(ID_PREFIXES.checkpoint);
    await checkpoints.capture(s.tenantId, s.sessionId, id);
    expect(await checkpoints.sealAndPrune(id, 'sevt_not_committed', 1)).toBe(false);
    expect((await checkpoints.list(s.sessionId, 10)).map((c) => c.id)).toEqual([kept]);
  });

  const platformEvent = (type: string): NewEvent => ({
    id: newId(ID_PREFIXES.sessionEvent),
    type,
    payload: {},
    processed: true,
  });

  /** A whole turn under a lease, its closing statement carrying the checkpoint (as `TurnClosing` writes it). */
  async function closeTurn(s: SessionFixture, keep = 100) {
    // The log so far was written straight to the table: the row's seq follows it.
    await db.prisma.session.update({ where: { id: s.sessionId }, data: { lastSeq: BigInt(seq) } });
    const { lease } = (await state.acquire(s.sessionId, 'runner', 60_000))!;
    const running = { from: ['idle'], to: 'running', stopReason: null, consume: [] };
    await events.appendWithTransition(s.sessionId, lease, running, [platformEvent('session.status_running')]);
    const closing = platformEvent('session.status_idle');
    const id = newId(ID_PREFIXES.checkpoint);
    const closed = await events.closeWithCheckpoint(
      s.sessionId,
      lease,
      { from: ['running'], to: 'idle', stopReason: null, consume: [], release: true },
      [platformEvent('agent.message'), closing],
      { id, roots: handsDurableRoots(s.tenantId, s.sessionId), keep },
    );
    seq = closed!.rows.at(-1)!.seq;
    return { id, closing: closing.id, closed: closed! };
  }

  it("writes and seals an empty Hands copy's checkpoint in the turn's closing statement", async () => {
    const s = await seedSession(db.prisma);
    const { id, closing, closed } = await closeTurn(s);
    expect(closed.checkpoint).toEqual({ taken: true, blobsFreed: false });
    expect(closed.rows.map((r) => r.type)).toEqual(['agent.message', 'session.status_idle']);
    const [row] = await checkpoints.list(s.sessionId, 10);
    expect(row).toMatchObject({ id, event_id: closing, seq });
    expect(await db.prisma.sessionCheckpointFile.count({ where: { checkpointId: id } })).toBe(0);
    const session = await db.prisma.session.findUniqueOrThrow({ where: { id: s.sessionId } });
    expect([session.status, session.leaseOwner]).toEqual(['idle', null]);
  });

  it('keeps the newest sealed checkpoints when the closing statement writes them too', async () => {
    const s = await seedSession(db.prisma);
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) ids.push((await closeTurn(s, 2)).id);
    expect((await checkpoints.list(s.sessionId, 10)).map((c) => c.id)).toEqual(ids.slice(2));
  });

  it('writes no checkpoint in the closing statement when the Hands copy has an entry', async () => {
    const s = await seedSession(db.prisma);
    await writeFile(s, '/notes.txt', 'v1');
    const { closed } = await closeTurn(s);
    expect(closed.checkpoint).toEqual({ taken: false, blobsFreed: false });
    expect(closed.rows.at(-1)?.type).toBe('session.status_idle');
    expect(await checkpoints.list(s.sessionId, 10)).toEqual([]);
  });

  it('asks for a sweep only when a checkpoint it pruned named stored content', async () => {
    const s = await seedSession(db.prisma);
    await writeFile(s, '/notes.txt', 'v1');
    await takeCheckpoint(s);
    await db.prisma.handsWorkspaceFile.deleteMany({ where: { tenantId: s.tenantId } });
    expect((await closeTurn(s, 1)).closed.checkpoint).toEqual({ taken: true, blobsFreed: true });
    expect((await closeTurn(s, 1)).closed.checkpoint).toEqual({ taken: true, blobsFreed: false });
  });
});
