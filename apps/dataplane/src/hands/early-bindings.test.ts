import { describe, expect, it } from 'vitest';
import type { HandsBinding, HandsBindings } from './hands-bindings.js';
import { EarlyBindings } from './early-bindings.js';

/** Bindings that answer with the next epoch each time they are asked, or fail while `failing` is set. */
function countingBindings() {
  const asked = { count: 0, failing: false };
  const bindings = {
    bind: (): Promise<HandsBinding> => {
      asked.count += 1;
      return asked.failing
        ? Promise.reject(new Error('redis is restarting'))
        : Promise.resolve({ workerId: 'w1', epoch: asked.count });
    },
  } as unknown as HandsBindings;
  return { asked, bindings };
}

describe('EarlyBindings', () => {
  it('gives a call the binding looked up while its tool_use was recorded, once', async () => {
    const { asked, bindings } = countingBindings();
    const early = new EarlyBindings(bindings, 'ten_1', 'sesn_1');
    early.start('call_1');
    expect(asked.count).toBe(1);
    expect(await early.take('call_1')).toEqual({ workerId: 'w1', epoch: 1 });
    expect(await early.take('call_1')).toBeNull();
    expect(await early.take('call_2')).toBeNull();
  });

  it('drops a binding that settled more than a second before its call came, and one that failed', async () => {
    const { asked, bindings } = countingBindings();
    let now = 0;
    const early = new EarlyBindings(bindings, 'ten_1', 'sesn_1', () => now);
    early.start('call_1');
    await Promise.resolve();
    now = 1_001;
    expect(await early.take('call_1')).toBeNull();
    asked.failing = true;
    early.start('call_2');
    expect(await early.take('call_2')).toBeNull();
  });
});
