import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '@agentry/contracts';
import { turnInput } from './turn-abort.js';

const stored = (id: string, type: string) => ({ seq: 0, event: { id, type } }) as unknown as StoredEvent;
const ids = (events: StoredEvent[]) => events.map((e) => e.event.id);

describe('turnInput', () => {
  it('takes the whole inbox when it holds no interrupt', () => {
    expect(turnInput([stored('a', 'user.message'), stored('b', 'user.message')])).toMatchObject({
      interrupted: false,
    });
    expect(ids(turnInput([stored('a', 'user.message')]).input)).toEqual(['a']);
  });

  it('stops at the last interrupt: what was queued before it is not answered, what came after waits for the next turn', () => {
    const inbox = [
      stored('a', 'user.message'),
      stored('i1', 'user.interrupt'),
      stored('b', 'user.message'),
      stored('i2', 'user.interrupt'),
      stored('c', 'user.message'),
    ];
    const { input, interrupted } = turnInput(inbox);
    expect(interrupted).toBe(true);
    expect(ids(input)).toEqual(['a', 'i1', 'b', 'i2']);
  });
});
