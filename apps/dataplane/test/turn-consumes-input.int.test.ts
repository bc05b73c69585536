import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataplaneSubjects as D, type Actor, type InboundEvent } from '@agentry/contracts';
import type { SessionEvent } from '@agentry/db';
import { pollUntil } from '@agentry/testing';
import { SessionLogCache } from '../src/event-log/session-log-cache.js';
import { SessionEventsRepository } from '../src/event-log/session-events.repository.js';
import { buildConversation } from '../src/conversation/conversation-builder.js';
import { startDataplane, type DataplaneTestApp } from './dataplane-test-app.js';
import {
  adminOf,
  agentSnapshot,
  seedSelfHostedEnvironment,
  seedSelfHostedSession,
  seedSessionOnNewEnvironment,
} from './self-hosted-fixture.js';

const text = (t: string): InboundEvent => ({ type: 'user.message', content: [{ type: 'text', text: t }] });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The turns of a log: from each `session.status_running` to the status that ends it. */
function turnsOf(log: SessionEvent[]): SessionEvent[][] {
  const turns: SessionEvent[][] = [];
  let current: SessionEvent[] | undefined;
  for (const event of log) {
    if (event.type === 'session.status_running') current = [];
    else if (event.type === 'session.status_idle' && current) {
      turns.push(current);
      current = undefined;
    } else current?.push(event);
  }
  return turns;
}

describe('a turn consumes what it answers', () => {
  let dp: DataplaneTestApp;
  let actor: Actor;

  beforeAll(async () => {
    dp = await startDataplane();
  });
  afterAll(async () => {
    await dp?.close();
  });

  // A self-hosted turn writes its start at once; a plain local one with its first model call.
  it.each(['self_hosted', 'local'] as const)(
    'answers each message in the turn that consumes it: no turn runs without a model call (%s)',
    async (type) => {
      const env = await seedSelfHostedEnvironment(dp.db.prisma);
      actor = adminOf(env);
      // Each answer takes a little while, so messages keep landing while turns are being leased, started and run.
      const slow = agentSnapshot(env.agentId, { turns: [{ reply: [{ delayMs: 15, text: 'answered' }] }] });
      const sessionId =
        type === 'self_hosted'
          ? await seedSelfHostedSession(dp.db.prisma, env, slow)
          : await seedSessionOnNewEnvironment(dp.db.prisma, env, 'local', { ...slow, tools: [] });
      const sent: string[] = [];
      for (let i = 0; i < 40; i += 1) {
        sent.push(`message ${i}`);
        await dp.rpc.request(D.appendEvents, { actor, sessionId, events: [text(`message ${i}`)] });
        await sleep((i * 7) % 23);
      }
      const log = await pollUntil(
        'every message consumed and the session idle',
        async () => {
          const events = await dp.db.prisma.sessionEvent.findMany({
            where: { sessionId },
            orderBy: { seq: 'asc' },
          });
          const settled =
            events.every((e) => e.processedAt !== null) && events.at(-1)?.type === 'session.status_idle';
          return settled ? events : undefined;
        },
        30_000,
      );
      const turns = turnsOf(log);
      expect(turns.length).toBeGreaterThan(1);
      // A turn that found its input already answered would start, make no model call and go idle.
      for (const turn of turns) expect(turn.map((e) => e.type)).toContain('span.model_request_start');
      expect(log.filter((e) => e.type === 'user.message')).toHaveLength(sent.length);
      // The conversation a next turn would rebuild (from the last compaction on) holds every message the
      // session kept, once, and ends with an answer: no message was dropped or placed before its answer.
      const live = await new SessionLogCache(dp.app.get(SessionEventsRepository), 0).read(sessionId);
      const conversation = buildConversation(live);
      const said = conversation.flatMap((m) =>
        m.role === 'user' ? m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])) : [],
      );
      const kept = sent.filter((t) => said.includes(t));
      expect(kept).toEqual(sent.slice(sent.length - kept.length));
      expect(conversation.at(-1)?.role).toBe('assistant');
    },
  );
});
