import { describe, expect, it } from 'vitest';
import { NoRespondersError, RequestError, TimeoutError } from '@nats-io/transport-node';
import { AppError } from '@agentry/contracts';
import { isNoResponders } from './no-responders.js';

describe('isNoResponders', () => {
  const noResponders = new RequestError('no responders', {
    cause: new NoRespondersError('hands.exec.worker.w1'),
  });

  it("finds the client's no-responders error however the caller wrapped it", () => {
    expect(isNoResponders(noResponders)).toBe(true);
    expect(isNoResponders(new AppError('UNAVAILABLE', 'did not answer', { cause: noResponders }))).toBe(true);
  });

  it('tells a timeout or any other failure apart: such a request may have reached its handler', () => {
    expect(isNoResponders(new TimeoutError())).toBe(false);
    expect(isNoResponders(new AppError('UNAVAILABLE', 'did not answer', { cause: new Error('x') }))).toBe(
      false,
    );
    expect(isNoResponders('no responders')).toBe(false);
    expect(isNoResponders(undefined)).toBe(false);
  });
});
