import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '@agentry/contracts';
import { withRollbacks } from './rollbacks.js';

const event = (seq: number, type: string, fields: Record<string, unknown> = {}): StoredEvent =>
  ({ seq, event: { id: `sevt_${seq}`, type, processed_at: null, created_at: '', ...fields } }) as StoredEvent;

describe('withRollbacks', () => {
  it('drops what lay between the checkpoint and each rollback, and keeps what came after', () => {
    const log = [
      event(1, 'user.message'),
      event(2, 'session.status_idle'),
      event(3, 'user.message'),
      event(4, 'session.status_idle'),
      event(5, 'session.rolled_back', { to_seq: 2 }),
      event(6, 'user.message'),
      event(7, 'session.status_idle'),
    ];
    expect(withRollbacks(log).map((e) => e.seq)).toEqual([1, 2, 6, 7]);
  });

  it('takes a rollback to a checkpoint of an abandoned branch to that checkpoint as it was', () => {
    const log = [
      event(1, 'session.status_idle'),
      event(2, 'session.status_idle'),
      event(3, 'session.rolled_back', { to_seq: 1 }),
      event(4, 'session.status_idle'),
      event(5, 'session.rolled_back', { to_seq: 2 }),
      event(6, 'user.message'),
    ];
    // and one to a checkpoint taken after an earlier rollback reads that rollback too
    expect(withRollbacks([...log, event(7, 'session.rolled_back', { to_seq: 4 })]).map((e) => e.seq)).toEqual(
      [1, 4],
    );
    expect(withRollbacks(log).map((e) => e.seq)).toEqual([1, 2, 6]);
  });
});
