import { describe, expect, it } from 'vitest';
import { AppError } from '@agentry/contracts';
import { assertWorkerMaySend } from './worker-events.js';

describe('assertWorkerMaySend', () => {
  it('lets a worker post tool results', () => {
    expect(() =>
      assertWorkerMaySend([{ type: 'user.tool_result' }, { type: 'user.custom_tool_result' }]),
    ).not.toThrow();
  });

  it('refuses a batch holding anything a user would send, naming it', () => {
    for (const type of ['user.message', 'user.tool_confirmation', 'user.interrupt', 'system.message']) {
      let caught: unknown;
      try {
        assertWorkerMaySend([{ type: 'user.tool_result' }, { type }]);
      } catch (error) {
        caught = error;
      }
      expect(AppError.is(caught, 'PERMISSION_DENIED')).toBe(true);
      expect((caught as Error).message).toContain(type);
    }
  });
});
