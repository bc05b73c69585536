import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  DataplaneSubjects as D,
  HandsRegistry,
  HandsSubjects,
  PubSubjects,
  type Actor,
  type InboundEvent,
} from '@agentry/contracts';
import type { SessionEvent } from '@agentry/db';
import { createRedis, redisKeyPrefix } from '@agentry/platform';
import { startDataplane, type DataplaneTestApp } from './dataplane-test-app.js';
import {
  agentSnapshot,
  adminOf,
  seedSelfHostedEnvironment,
  seedSelfHostedSession,
  seedSessionOnNewEnvironment,
  type SelfHostedEnvironment,
} from './self-hosted-fixture.js';

/** The turn calls a Hands tool that never answers: only a cancel ends it early. */
const script = {
  turns: [{ reply: [{ text: 'Looking.', toolCall: { name: 'glob', input: { pattern: '*' } } }, 'done'] }],
};

describe('interrupts reach the running turn and the Hands', () => {
  let dp: DataplaneTestApp;
  let env: SelfHostedEnvironment;
  let actor: Actor;

  beforeAll(async () => {
    dp = await startDataplane({ AGENTRY_TOOL_TIMEOUT_MS: '60000' });
    env = await seedSelfHostedEnvironment(dp.db.prisma);
    actor = adminOf(env);
  });
  afterAll(async () => {
    await dp?.close();
  });

  /** An idle session on a `local` environment, whose file tools go to the Hands over NATS. */
  const localSession = (): Promise<string> =>
    seedSessionOnNewEnvironment(dp.db.prisma, env, 'local', agentSnapshot(env.agentId, script));
  const send = (sessionId: string, ...events: InboundEvent[]) =>
    dp.rpc.request(D.appendEvents, { actor, sessionId, events });
  const log = (sessionId: string): Promise<SessionEvent[]> =>
    dp.db.prisma.sessionEvent.findMany({ where: { sessionId }, orderBy: { seq: 'asc' } });
  const next = <T>(subject: string, accept: (message: T) => boolean = () => true) => {
    let stop: () => void = () => undefined;
    const arrived = new Promise<{ message: T; at: number }>((resolve) => {
      stop = dp.bus.subscribe(subject, (message) => {
        if (accept(message as T)) resolve({ message: message as T, at: Date.now() });
      });
    });
    return { arrived: arrived.finally(() => stop()), ready: dp.bus.flush() };
  };
  function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
    return vi.waitFor(
      async () => {
        const value = await probe();
        if (value === undefined) throw new Error(`timed out waiting for ${what}`);
        return value;
      },
      { timeout: timeoutMs, interval: 25 },
    );
  }

  it('announces a user.interrupt on NATS as it is appended; with no turn to stop it is consumed and changes nothing', async () => {
    const sessionId = await localSession();
    const heard = next<{ event: { id: string; type: string } }>(PubSubjects.sessionInterrupt(sessionId));
    await heard.ready;
    const [sent] = (await send(sessionId, { type: 'user.interrupt' })).data;
    const { message } = await heard.arrived;
    expect(message.event).toMatchObject({ id: sent!.event.id, type: 'user.interrupt' });

    await until('the interrupt consumed', async () =>
      (await log(sessionId)).every((e) => e.processedAt) ? true : undefined,
    );
    expect((await log(sessionId)).map((e) => e.type)).toEqual(['user.interrupt']);
    expect((await dp.db.prisma.session.findUniqueOrThrow({ where: { id: sessionId } })).status).toBe('idle');
  });

  it('jumps the queue at the start of a turn: input queued before the interrupt is recorded, not answered; input after it gets the next turn', async () => {
    const sessionId = await localSession();
    const text = (t: string): InboundEvent => ({
      type: 'user.message',
      content: [{ type: 'text', text: t }],
    });
    await send(sessionId, text('never mind this'), { type: 'user.interrupt' }, text('quick question'));
    await until('both turns', async () =>
      (await log(sessionId)).filter((e) => e.type === 'session.status_idle').length === 2 ? true : undefined,
    );
    const events = await log(sessionId);
    const firstIdle = events.findIndex((e) => e.type === 'session.status_idle');
    // The first turn ends before any model call: the interrupt was already in its input.
    expect(events.slice(0, firstIdle + 1).map((e) => e.type)).toEqual([
      'user.message',
      'user.interrupt',
      'user.message',
      'session.status_running',
      'session.status_idle',
    ]);
    expect(events[firstIdle]!.payload).toEqual({ stop_reason: { type: 'end_turn' } });
    expect(events.slice(firstIdle).some((e) => e.type === 'span.model_request_start')).toBe(true);
    expect(events.every((e) => e.processedAt)).toBe(true);
  });

  it('cancels the Hands call in flight, by its tool_use id, and closes it with a result saying so', async () => {
    const sessionId = await localSession();
    // Plays a live worker that takes the call and never answers.
    const redis = createRedis(dp.config.REDIS_URL, { keyPrefix: redisKeyPrefix(dp.config.AGENTRY_ENV) });
    await redis.zadd(HandsRegistry.workers, Date.now() + 120_000, 'w-silent');
    redis.disconnect();
    const exec = next<{ data?: { toolUseId: string } }>(HandsSubjects.execOn('w-silent').subject);
    await exec.ready;
    await send(sessionId, { type: 'user.message', content: [{ type: 'text', text: 'look around' }] });
    await exec.arrived;
    const toolUse = await until('the tool call', async () =>
      (await log(sessionId)).find((e) => e.type === 'agent.tool_use'),
    );

    const cancel = next<{ toolUseId: string; sessionId: string; reason: string }>(HandsSubjects.cancel);
    await cancel.ready;
    const interruptedAt = Date.now();
    await send(sessionId, { type: 'user.interrupt' });
    const { message, at } = await cancel.arrived;
    expect(message).toMatchObject({ toolUseId: toolUse.id, sessionId, reason: 'interrupted' });
    expect(at - interruptedAt).toBeLessThan(1_000);

    const idle = await until('idle', async () => {
      const row = await dp.db.prisma.session.findUniqueOrThrow({ where: { id: sessionId } });
      return row.status === 'idle' ? row : undefined;
    });
    expect(idle.stopReason).toEqual({ type: 'end_turn' });
    const events = await log(sessionId);
    const result = events.find((e) => e.type === 'agent.tool_result')!;
    expect(result.payload).toMatchObject({ tool_use_id: toolUse.id, is_error: true });
    expect(JSON.stringify(result.payload)).toMatch(/cancelled/);
    expect(events.every((e) => e.processedAt)).toBe(true);
  });

  it("closes the calls a session was left waiting on (a self-hosted worker's result) and ends end_turn", async () => {
    const writeScript = {
      turns: [
        {
          reply: [
            { text: 'Writing.', toolCall: { name: 'write', input: { file_path: 'a.txt', content: 'a' } } },
            'written',
          ],
        },
      ],
    };
    const sessionId = await seedSelfHostedSession(dp.db.prisma, env, agentSnapshot(env.agentId, writeScript));
    await send(sessionId, { type: 'user.message', content: [{ type: 'text', text: 'write it' }] });
    const waiting = await until('requires_action', async () => {
      const row = await dp.db.prisma.session.findUniqueOrThrow({ where: { id: sessionId } });
      return row.status === 'idle' && (row.stopReason as { type?: string } | null)?.type === 'requires_action'
        ? row
        : undefined;
    });
    const toolUseId = (waiting.stopReason as { event_ids: string[] }).event_ids[0]!;

    await send(sessionId, { type: 'user.interrupt' });
    const idle = await until('end_turn', async () => {
      const row = await dp.db.prisma.session.findUniqueOrThrow({ where: { id: sessionId } });
      return row.status === 'idle' && (row.stopReason as { type?: string } | null)?.type === 'end_turn'
        ? row
        : undefined;
    });
    expect(idle.stopReason).toEqual({ type: 'end_turn' });
    const events = await log(sessionId);
    const result = events.find((e) => e.type === 'agent.tool_result');
    expect(result?.payload).toMatchObject({ tool_use_id: toolUseId, is_error: true });
    expect(JSON.stringify(result?.payload)).toMatch(/cancelled/);
    // No model call after the interrupt.
    expect(events.filter((e) => e.type === 'span.model_request_start')).toHaveLength(1);
  });
});
