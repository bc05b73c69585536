import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PubSubjects, type StoredEvent } from '@agentry/contracts';
import { NatsBus } from '@agentry/platform';
import { testNatsUrl, testSubjectPrefix } from '@agentry/testing';
import { SessionInterrupts } from '../src/drain/session-interrupts.js';

const stored = (id: string, type = 'user.interrupt'): StoredEvent =>
  ({
    seq: 1,
    event: { id, type, processed_at: null, created_at: new Date().toISOString() },
  }) as StoredEvent;

/** How a running turn hears of its session's interrupt: one replica-wide subscription, routed by session. */
describe('session interrupts', () => {
  let replicaBus: NatsBus;
  let appendingBus: NatsBus;
  let interrupts: SessionInterrupts;

  beforeAll(async () => {
    const prefix = testSubjectPrefix();
    replicaBus = await NatsBus.connect(testNatsUrl(), prefix, 'replica');
    appendingBus = await NatsBus.connect(testNatsUrl(), prefix, 'appending-replica');
    interrupts = new SessionInterrupts(replicaBus);
    interrupts.onModuleInit();
    await replicaBus.flush();
  });
  afterAll(async () => {
    interrupts?.onModuleDestroy();
    await replicaBus?.close();
    await appendingBus?.close();
  });

  const announce = async (sessionId: string, event: StoredEvent) => {
    appendingBus.publish(PubSubjects.sessionInterrupt(sessionId), event);
    await appendingBus.flush();
    await replicaBus.flush();
  };

  it('hears an interrupt of the watched session, announced from another replica, from the moment it watches', async () => {
    const heard: string[] = [];
    const stop = interrupts.watch('sesn_a', (id) => heard.push(id));
    // Published right after the watch, with no round trip of the watcher's in between.
    await announce('sesn_a', stored('sevt_1'));
    expect(heard).toEqual(['sevt_1']);
    stop();
  });

  it('routes by session: other sessions, other event types and ended watches hear nothing', async () => {
    const a: string[] = [];
    const b: string[] = [];
    const stopA = interrupts.watch('sesn_a', (id) => a.push(id));
    const stopB = interrupts.watch('sesn_b', (id) => b.push(id));
    await announce('sesn_b', stored('sevt_2'));
    await announce('sesn_a', stored('sevt_3', 'user.message'));
    stopA();
    await announce('sesn_a', stored('sevt_4'));
    expect(a).toEqual([]);
    expect(b).toEqual(['sevt_2']);
    stopB();
  });

  it('tells every watch of the session, and keeps the others when one stops', async () => {
    const first: string[] = [];
    const second: string[] = [];
    const stopFirst = interrupts.watch('sesn_c', (id) => first.push(id));
    const stopSecond = interrupts.watch('sesn_c', (id) => second.push(id));
    await announce('sesn_c', stored('sevt_5'));
    stopFirst();
    await announce('sesn_c', stored('sevt_6'));
    expect(first).toEqual(['sevt_5']);
    expect(second).toEqual(['sevt_5', 'sevt_6']);
    stopSecond();
  });
});
