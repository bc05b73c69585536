import { describe, expect, it } from 'vitest';
import { HandsSubjects, type HandsCancel } from '@agentry/contracts';
import { createLogger, SystemClock, type NatsBus } from '@agentry/platform';
import { HandsCancelListener } from './hands-cancel.listener.js';
import { RunningToolCalls } from './running-tool-calls.js';
import { WORKER_ID } from './worker-identity.js';

/** A bus that hands the listener what a dataplane publishes on the cancel subject. */
function cancelBus() {
  const handlers = new Map<string, (message: unknown) => void>();
  const bus = {
    subscribe: (subject: string, handler: (message: unknown) => void) => {
      handlers.set(subject, handler);
      return () => handlers.delete(subject);
    },
  } as unknown as NatsBus;
  const publish = (cancel: Omit<HandsCancel, 'v'>) =>
    handlers.get(HandsSubjects.cancel)?.({ v: 1, ...cancel });
  return { bus, publish };
}

describe('a worker hearing the cancels of tool calls', () => {
  const setUp = () => {
    const { bus, publish } = cancelBus();
    const running = new RunningToolCalls(new SystemClock());
    const listener = new HandsCancelListener(bus, running, createLogger('test', 'error'));
    listener.onModuleInit();
    return { running, publish };
  };

  it('runs a call sent to it after the worker it was first sent to was found dead and told to drop it', () => {
    const { running, publish } = setUp();
    publish({ sessionId: 'sesn_1', toolUseId: 'toolu_1', reason: 'lease_lost', workerId: 'a-dead-worker' });
    expect(running.start('toolu_1').aborted).toBe(false);
  });

  it('refuses a call whose cancel, addressed to it or to every worker, came first', () => {
    const { running, publish } = setUp();
    publish({ sessionId: 'sesn_1', toolUseId: 'toolu_1', reason: 'lease_lost', workerId: WORKER_ID });
    publish({ sessionId: 'sesn_1', toolUseId: 'toolu_2', reason: 'interrupted' });
    expect(running.start('toolu_1').aborted).toBe(true);
    expect(running.start('toolu_2').aborted).toBe(true);
  });
});
