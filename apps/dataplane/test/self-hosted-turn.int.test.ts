import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  DataplaneSubjects as D,
  decodeWorkSecret,
  Jobs,
  WorkSubjects as W,
  type Actor,
  type InboundEvent,
  type WorkPrincipal,
} from '@agentry/contracts';
import { createLogger, JobQueue } from '@agentry/platform';
import type { SessionEvent } from '@agentry/db';
import { startDataplane, type DataplaneTestApp } from './dataplane-test-app.js';
import {
  agentSnapshot,
  adminOf,
  seedSelfHostedEnvironment,
  seedSelfHostedSession,
  type SelfHostedEnvironment,
} from './self-hosted-fixture.js';

const WRITE = { file_path: 'notes/hello.txt', content: 'hi' };
const script = {
  turns: [
    { reply: [{ text: 'Writing it.', toolCall: { name: 'write', input: WRITE } }, 'The file is written.'] },
  ],
};

describe('a turn on a self-hosted environment', () => {
  let dp: DataplaneTestApp;
  let env: SelfHostedEnvironment;
  let actor: Actor;
  let key: WorkPrincipal;
  beforeAll(async () => {
    dp = await startDataplane();
    env = await seedSelfHostedEnvironment(dp.db.prisma);
    actor = adminOf(env);
    key = {
      tenantId: env.tenantId,
      namespaceId: env.namespaceId,
      environmentId: env.environmentId,
      workId: null,
      sessionId: null,
    };
  });
  afterAll(async () => {
    await dp?.close();
  });

  const send = (sessionId: string, ...events: InboundEvent[]) =>
    dp.rpc.request(D.appendEvents, { actor, sessionId, events });
  const log = (sessionId: string): Promise<SessionEvent[]> =>
    dp.db.prisma.sessionEvent.findMany({ where: { sessionId }, orderBy: { seq: 'asc' } });
  const ofType = (events: SessionEvent[], type: string) => events.filter((e) => e.type === type);
  const payload = (e: SessionEvent | undefined) => (e?.payload ?? {}) as Record<string, unknown>;

  function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
    return vi.waitFor(
      async () => {
        const value = await probe();
        if (value === undefined) throw new Error(`timed out waiting for ${what}`);
        return value;
      },
      { timeout: timeoutMs, interval: 100 },
    );
  }
  const settled = (sessionId: string, stop: string) =>
    until(`idle ${stop}`, async () => {
      const row = await dp.db.prisma.session.findUniqueOrThrow({ where: { id: sessionId } });
      const inbox = await dp.db.prisma.sessionEvent.count({ where: { sessionId, processedAt: null } });
      const reason = row.stopReason as { type?: string } | null;
      return row.status === 'idle' && reason?.type === stop && inbox === 0 && row.leaseOwner === null
        ? row
        : undefined;
    });

  /** Sends the first message and waits for the turn to suspend on the worker's `write`. */
  async function suspendedSession(): Promise<{ sessionId: string; toolUseId: string }> {
    const sessionId = await seedSelfHostedSession(dp.db.prisma, env, agentSnapshot(env.agentId, script));
    await send(sessionId, { type: 'user.message', content: [{ type: 'text', text: 'write hello' }] });
    const row = await settled(sessionId, 'requires_action');
    const toolUse = ofType(await log(sessionId), 'agent.tool_use')[0]!;
    expect(row.stopReason).toEqual({ type: 'requires_action', event_ids: [toolUse.id] });
    return { sessionId, toolUseId: toolUse.id };
  }

  it('commits the tool_use, goes idle requires_action without holding the lease, and queues work a worker can claim', async () => {
    const { sessionId, toolUseId } = await suspendedSession();
    const events = await log(sessionId);
    expect(payload(ofType(events, 'agent.tool_use')[0])).toEqual({
      name: 'write',
      input: WRITE,
      evaluated_permission: 'allow',
    });
    expect(ofType(events, 'agent.tool_result')).toHaveLength(0);
    expect(payload(events.at(-1))).toEqual({
      stop_reason: { type: 'requires_action', event_ids: [toolUseId] },
    });
    expect(events.at(-1)?.type).toBe('session.status_idle');

    const work = (await dp.rpc.request(W.poll, { principal: key, workerId: 'laptop' })).work!;
    expect(work.data).toEqual({ type: 'session', id: sessionId });
    const asWorker = await dp.rpc.request(W.verifySessionsToken, {
      token: decodeWorkSecret(work.secret!).sessions_token,
    });
    const pending = await dp.rpc.request(W.pendingTools, { principal: asWorker, sessionId });
    expect(pending.data).toEqual([
      {
        eventId: toolUseId,
        seq: Number(ofType(events, 'agent.tool_use')[0]!.seq),
        toolUseId,
        name: 'write',
        input: WRITE,
      },
    ]);
    const otherSession = await seedSelfHostedSession(dp.db.prisma, env);
    await expect(
      dp.rpc.request(W.pendingTools, { principal: asWorker, sessionId: otherSession }),
    ).rejects.toThrow(/not found/);
  });

  it("resumes with the worker's result, ends end_turn with the reply, and ignores a second result for the same call", async () => {
    const { sessionId, toolUseId } = await suspendedSession();
    const result: InboundEvent = {
      type: 'user.tool_result',
      tool_use_id: toolUseId,
      content: [{ type: 'text', text: 'wrote 2 bytes to notes/hello.txt' }],
    };
    await send(sessionId, result);
    await settled(sessionId, 'end_turn');
    let events = await log(sessionId);
    expect(ofType(events, 'agent.tool_result').map(payload)).toEqual([
      {
        tool_use_id: toolUseId,
        content: [{ type: 'text', text: 'wrote 2 bytes to notes/hello.txt' }],
        is_error: false,
      },
    ]);
    expect(payload(ofType(events, 'agent.message').at(-1))).toEqual({
      content: [{ type: 'text', text: 'The file is written.' }],
    });
    expect((await dp.rpc.request(W.pendingTools, { principal: key, sessionId })).data).toEqual([]);

    const runsBefore = ofType(events, 'session.status_running').length;
    const {
      data: [duplicate],
    } = await send(sessionId, {
      ...result,
      content: [{ type: 'text', text: 'late second delivery' }],
    });
    await until('the duplicate consumed', async () =>
      (await dp.db.prisma.sessionEvent.findUniqueOrThrow({ where: { id: duplicate!.event.id } })).processedAt
        ? true
        : undefined,
    );
    await settled(sessionId, 'end_turn');
    events = await log(sessionId);
    expect(ofType(events, 'agent.tool_result')).toHaveLength(1);
    expect(ofType(events, 'session.status_running')).toHaveLength(runsBefore);
    expect(events.at(-1)?.id).toBe(duplicate!.event.id);
  });

  it('keeps the call pending for the worker when a turn restarts, instead of calling it interrupted', async () => {
    const { sessionId, toolUseId } = await suspendedSession();
    // A replica died mid-turn: the session is left running with its lease expired, and the reconciler kicks it.
    await dp.db.prisma.session.update({ where: { id: sessionId }, data: { status: 'running' } });
    const jobs = new JobQueue(
      dp.config.REDIS_URL,
      `agentry:${dp.config.AGENTRY_ENV}:bull`,
      createLogger('test', 'error'),
    );
    try {
      await jobs.enqueue(Jobs.sessionDrain, { sessionId, tenantId: env.tenantId, reason: 'reconcile' });
      await settled(sessionId, 'requires_action');
    } finally {
      await jobs.close();
    }
    const events = await log(sessionId);
    expect(ofType(events, 'agent.tool_result')).toHaveLength(0);
    expect(payload(events.at(-1))).toEqual({
      stop_reason: { type: 'requires_action', event_ids: [toolUseId] },
    });
    expect(
      (await dp.rpc.request(W.pendingTools, { principal: key, sessionId })).data.map((c) => c.toolUseId),
    ).toEqual([toolUseId]);
  });

  it('queues a fresh item when a worker leaves while a call is still pending', async () => {
    const { sessionId } = await suspendedSession();
    const items = () =>
      dp.db.prisma.workItem.findMany({ where: { sessionId }, orderBy: { createdAt: 'asc' } });
    const [first] = await items();
    await dp.rpc.request(W.stop, { principal: key, workId: first!.id, force: true });
    const after = await items();
    expect(after.map((w) => w.state)).toEqual(['stopped', 'queued']);
  });

  it('holds a message sent while the worker works until its result, and lets no stopping item block the next', async () => {
    const { sessionId, toolUseId } = await suspendedSession();
    // Earlier sessions of this environment queued items too: claim until this session's comes up.
    const work = await until('this session claimed', async () => {
      const claimed = (await dp.rpc.request(W.poll, { principal: key, workerId: 'leaving' })).work;
      return claimed?.data.id === sessionId ? claimed : undefined;
    });
    await dp.rpc.request(W.ack, { principal: key, workId: work.id });
    expect((await dp.rpc.request(W.stop, { principal: key, workId: work.id })).state).toBe('stopping');

    await send(sessionId, { type: 'user.message', content: [{ type: 'text', text: 'then say bye' }] });
    await until('the message consumed', async () =>
      (await dp.db.prisma.sessionEvent.count({ where: { sessionId, processedAt: null } })) === 0
        ? true
        : undefined,
    );
    await settled(sessionId, 'requires_action');
    const items = await dp.db.prisma.workItem.findMany({
      where: { sessionId },
      orderBy: { createdAt: 'asc' },
    });
    expect(items.map((w) => [w.id === work.id, w.state])).toEqual([
      [true, 'stopping'],
      [false, 'queued'],
    ]);

    await send(sessionId, {
      type: 'user.tool_result',
      tool_use_id: toolUseId,
      content: [{ type: 'text', text: 'wrote 2 bytes' }],
    });
    await settled(sessionId, 'end_turn');
    const events = await log(sessionId);
    expect(ofType(events, 'agent.tool_result').map((e) => payload(e).is_error)).toEqual([false]);
    // The model answered the held message, after the write's result.
    expect(payload(ofType(events, 'agent.message').at(-1))).toEqual({
      content: [{ type: 'text', text: 'You said: then say bye' }],
    });
  });
});
