import { describe, expect, it } from 'vitest';
import type { ExecutionContext } from '@nestjs/common';
import { AppError } from '@agentry/contracts';
import { PathTextGuard } from './path-text.guard.js';

const withParams = (params: Record<string, string>) =>
  ({
    getType: () => 'http',
    switchToHttp: () => ({ getRequest: () => ({ params }) }),
  }) as unknown as ExecutionContext;

describe('path text guard', () => {
  const guard = new PathTextGuard();

  it('lets ordinary ids, emoji and odd but storable text through', () => {
    expect(guard.canActivate(withParams({ id: 'agent_01J', name: '🧨 ../etc' }))).toBe(true);
  });

  it('refuses a NUL or an unpaired surrogate in a path parameter with a 400 naming it', () => {
    for (const id of ['abc\u0000def', '\ud800']) {
      let thrown: unknown;
      try {
        guard.canActivate(withParams({ storeId: 'memstore_1', id }));
      } catch (error) {
        thrown = error;
      }
      expect(AppError.is(thrown, 'INVALID_REQUEST')).toBe(true);
      expect((thrown as AppError).message).toMatch(/^path parameter id /);
    }
  });
});
