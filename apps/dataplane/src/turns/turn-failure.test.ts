import { describe, expect, it } from 'vitest';
import { AppError } from '@agentry/contracts';
import { turnFailureEvent } from './turn-failure.js';

describe('turnFailureEvent', () => {
  it('says what broke and what to do for an unexpected exception, never retried', () => {
    expect(turnFailureEvent(new TypeError("Cannot read properties of undefined (reading 'type')"))).toEqual({
      type: 'session.error',
      error: {
        type: 'unknown_error',
        message:
          "The turn failed unexpectedly (TypeError: Cannot read properties of undefined (reading 'type')). " +
          'The session is idle again: send another message to retry, and if it keeps failing check the dataplane logs.',
        retry_status: { type: 'terminal' },
      },
    });
  });

  it('keeps the type of a platform error and marks a retryable one as exhausted', () => {
    const event = turnFailureEvent(
      new AppError('MODEL_OVERLOADED', 'anthropic/claude: overloaded.', { retryable: true }),
    );
    expect(event.error).toMatchObject({
      type: 'model_overloaded_error',
      message: expect.stringMatching(
        /^The turn failed: anthropic\/claude: overloaded\. The session is idle again/,
      ) as unknown,
      retry_status: { type: 'exhausted' },
    });
  });

  it('clips a huge message', () => {
    const event = turnFailureEvent(new Error('x'.repeat(5_000)));
    expect((event.error as { message: string }).message.length).toBeLessThan(500);
  });
});
