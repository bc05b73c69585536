import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataplaneSubjects as D, type Actor, type InboundEvent } from '@agentry/contracts';
import { pollUntil } from '@agentry/testing';
import { SessionStateRepository } from '../src/sessions/session-state.repository.js';
import { startDataplane, type DataplaneTestApp } from './dataplane-test-app.js';
import { adminOf, seedSelfHostedEnvironment, seedSelfHostedSession } from './self-hosted-fixture.js';

const text = (t: string): InboundEvent => ({ type: 'user.message', content: [{ type: 'text', text: t }] });

describe('a turn answers the input it consumes', () => {
  let dp: DataplaneTestApp;
  let actor: Actor;
  let sessionId: string;

  beforeAll(async () => {
    dp = await startDataplane();
    const env = await seedSelfHostedEnvironment(dp.db.prisma);
    actor = adminOf(env);
    sessionId = await seedSelfHostedSession(dp.db.prisma, env);
  });
  afterAll(async () => {
    await dp?.close();
  });

  const send = (...events: InboundEvent[]) => dp.rpc.request(D.appendEvents, { actor, sessionId, events });

  it('starts again with a message committed just after the lease was taken, and answers both in one turn', async () => {
    // The second message commits right after the first drain took its lease, before its turn started.
    // A turn started then would consume only the first yet find the second before its answer in the log,
    // and a later turn would start on input already answered. The start is refused instead, and the
    // drain's next round takes both.
    const state = dp.app.get(SessionStateRepository);
    const acquire = state.acquire.bind(state);
    let injected = false;
    state.acquire = async (...args) => {
      const acquired = await acquire(...args);
      if (acquired && !injected) {
        injected = true;
        await send(text('second'));
      }
      return acquired;
    };
    await send(text('first'));

    const log = await pollUntil('both messages consumed and the session idle', async () => {
      const events = await dp.db.prisma.sessionEvent.findMany({
        where: { sessionId },
        orderBy: { seq: 'asc' },
      });
      const settled = events.every((e) => e.processedAt) && events.at(-1)?.type === 'session.status_idle';
      return settled ? events : undefined;
    });
    expect(injected).toBe(true);
    expect(log.map((e) => e.type)).toEqual([
      'user.message',
      'user.message',
      'session.status_running',
      'span.model_request_start',
      'span.model_request_end',
      'agent.message',
      'session.usage',
      'session.status_idle',
    ]);
    const answer = log.find((e) => e.type === 'agent.message')!.payload as {
      content: Array<{ text: string }>;
    };
    expect(answer.content[0]!.text).toBe('You said: second');
  });
});
