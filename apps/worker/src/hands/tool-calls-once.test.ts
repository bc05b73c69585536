import { describe, expect, it } from 'vitest';
import type { HandsExecResult } from '@agentry/contracts';
import { ToolCallsOnce } from './tool-calls-once.js';

const result = (text: string): HandsExecResult => ({
  toolUseId: 'sevt_1',
  isError: false,
  content: [{ type: 'text', text }],
});

describe('ToolCallsOnce', () => {
  it('runs a call once: a copy arriving while it runs, or after it ended, gets its result', async () => {
    const once = new ToolCallsOnce();
    let runs = 0;
    let finish: (r: HandsExecResult) => void = () => undefined;
    const start = () => {
      runs += 1;
      return new Promise<HandsExecResult>((resolve) => (finish = resolve));
    };
    const first = once.run('sevt_1', start);
    const copy = once.run('sevt_1', start);
    finish(result('ran'));
    expect(await first).toEqual(result('ran'));
    expect(await copy).toEqual(result('ran'));
    expect(await once.run('sevt_1', start)).toEqual(result('ran'));
    expect(runs).toBe(1);
  });

  it('forgets at once a result it is not asked to keep: its call may run on a later copy', async () => {
    const once = new ToolCallsOnce();
    const keepCancelled = (r: HandsExecResult) => r.reason === 'cancelled';
    await once.run(
      'sevt_1',
      () => Promise.resolve({ ...result('no sandbox'), reason: 'sandbox_unavailable' }),
      keepCancelled,
    );
    await once.run(
      'sevt_2',
      () => Promise.resolve({ ...result('[cancelled]'), reason: 'cancelled' }),
      keepCancelled,
    );
    await Promise.resolve();
    expect(await once.run('sevt_1', () => Promise.resolve(result('ran')), keepCancelled)).toEqual(
      result('ran'),
    );
    expect(await once.run('sevt_2', () => Promise.resolve(result('ran')), keepCancelled)).toMatchObject({
      reason: 'cancelled',
    });
  });

  it('answers a copy with the result until its record is in, then leaves the copy to the record', async () => {
    const once = new ToolCallsOnce();
    let record: () => void = () => undefined;
    const recorded = new Promise<void>((resolve) => (record = resolve));
    await once.run(
      'sevt_1',
      () => {
        once.holdUntil('sevt_1', recorded);
        return Promise.resolve(result('ran'));
      },
      () => false,
    );
    await Promise.resolve();
    expect(await once.known('sevt_1')).toEqual(result('ran'));
    record();
    await recorded;
    await new Promise((resolve) => setImmediate(resolve));
    expect(once.known('sevt_1')).toBeUndefined();
  });

  it('forgets an ended call after two minutes, and a call that threw at once', async () => {
    let now = 0;
    const once = new ToolCallsOnce(() => now);
    await once.run('sevt_1', () => Promise.resolve(result('a')));
    await expect(once.run('sevt_2', () => Promise.reject(new Error('sandbox')))).rejects.toThrow('sandbox');
    await Promise.resolve();
    expect(await once.run('sevt_2', () => Promise.resolve(result('b')))).toEqual(result('b'));
    now = 120_001;
    await once.run('sevt_3', () => Promise.resolve(result('c')));
    expect(await once.run('sevt_1', () => Promise.resolve(result('again')))).toEqual(result('again'));
  });
});
