import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  AppError,
  DataplaneSubjects as D,
  type Actor,
  type AppendIdempotency,
  type InboundEvent,
} from '@agentry/contracts';
import { startDataplane, type DataplaneTestApp } from './dataplane-test-app.js';
import {
  adminOf,
  seedSelfHostedEnvironment,
  seedSelfHostedSession,
  type SelfHostedEnvironment,
} from './self-hosted-fixture.js';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** What the gateway sends down for a request with an `Idempotency-Key`. */
const keyed = (key: string, request: string): AppendIdempotency => ({
  keyHash: sha256(key),
  requestHash: sha256(request),
});
const say = (text: string): InboundEvent => ({ type: 'user.message', content: [{ type: 'text', text }] });

describe('appends under an idempotency key against real Postgres', () => {
  let dp: DataplaneTestApp;
  let env: SelfHostedEnvironment;
  let actor: Actor;

  beforeAll(async () => {
    dp = await startDataplane();
    env = await seedSelfHostedEnvironment(dp.db.prisma);
    actor = adminOf(env);
  });
  afterAll(async () => {
    await dp?.close();
  });

  const send = (sessionId: string, idempotency: AppendIdempotency, text = 'hello') =>
    dp.rpc.request(D.appendEvents, { actor, sessionId, events: [say(text)], idempotency });
  const typesOf = async (sessionId: string) =>
    (await dp.db.prisma.sessionEvent.findMany({ where: { sessionId }, orderBy: { seq: 'asc' } })).map(
      (e) => e.type,
    );
  const count = (types: string[], type: string) => types.filter((t) => t === type).length;

  it('answers a retry with the events already committed, and appends and runs nothing again', async () => {
    const sessionId = await seedSelfHostedSession(dp.db.prisma, env);
    const key = keyed(randomUUID(), 'hello');
    const first = await send(sessionId, key);
    const retry = await send(sessionId, key);
    expect(retry.replayed).toBe(true);
    expect(first.replayed).toBeUndefined();
    expect(retry.data.map((s) => [s.seq, s.event.id, s.event.type])).toEqual(
      first.data.map((s) => [s.seq, s.event.id, s.event.type]),
    );
    // The one turn the message started ends; a retry after it still appends nothing and starts no turn.
    await vi.waitFor(async () => expect(count(await typesOf(sessionId), 'session.status_idle')).toBe(1), {
      timeout: 15_000,
      interval: 50,
    });
    const late = await send(sessionId, key);
    expect(late.data.map((s) => s.event.id)).toEqual(first.data.map((s) => s.event.id));
    const types = await typesOf(sessionId);
    expect(count(types, 'user.message')).toBe(1);
    expect(count(types, 'session.status_running')).toBe(1);
  });

  it('refuses the key for a different request and appends nothing', async () => {
    const sessionId = await seedSelfHostedSession(dp.db.prisma, env);
    const clientKey = randomUUID();
    await send(sessionId, keyed(clientKey, 'hello'));
    await expect(send(sessionId, keyed(clientKey, 'goodbye'), 'goodbye')).rejects.toSatisfy(
      (e) => AppError.is(e, 'IDEMPOTENCY_CONFLICT') && /different request/.test((e as Error).message),
    );
    expect(count(await typesOf(sessionId), 'user.message')).toBe(1);
  });

  it('appends once for concurrent duplicates; every one gets the same events', async () => {
    const sessionId = await seedSelfHostedSession(dp.db.prisma, env);
    const key = keyed(randomUUID(), 'hello');
    const answers = await Promise.all(Array.from({ length: 10 }, () => send(sessionId, key)));
    const ids = new Set(answers.map((a) => a.data[0]!.event.id));
    expect(ids.size).toBe(1);
    expect(answers.filter((a) => !a.replayed)).toHaveLength(1);
    const log = await dp.db.prisma.sessionEvent.findMany({ where: { sessionId }, orderBy: { seq: 'asc' } });
    expect(
      count(
        log.map((e) => e.type),
        'user.message',
      ),
    ).toBe(1);
    // The duplicates spent no seq either: the log has no gap.
    expect(log.map((e) => Number(e.seq))).toEqual(log.map((_, i) => i + 1));
  });

  it('frees a key after its retention: the same request then appends anew', async () => {
    const sessionId = await seedSelfHostedSession(dp.db.prisma, env);
    const key = keyed(randomUUID(), 'hello');
    const first = await send(sessionId, key);
    await dp.db.prisma.sessionEventKey.updateMany({
      where: { sessionId },
      data: { createdAt: new Date(Date.now() - 25 * 3600 * 1000) },
    });
    const later = await send(sessionId, key);
    expect(later.replayed).toBeUndefined();
    expect(later.data[0]!.event.id).not.toBe(first.data[0]!.event.id);
    expect(await dp.db.prisma.sessionEventKey.count({ where: { sessionId } })).toBe(1);
  });
});
