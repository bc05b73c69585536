import { AppError } from '@agentry/contracts';
import type { ModelPort, ModelRequest, ModelStreamEvent } from '@agentry/harness';

/**
 * Stands in for a model the installation cannot serve (its key was removed, its provider unset after the
 * agent was created): the turn's first model call fails with why and what to do, so the turn ends with a
 * `session.error` and goes idle instead of failing before it started.
 */
export class UnservableModel implements ModelPort {
  readonly contextWindow = 128_000;
  private readonly error: AppError;

  constructor(
    readonly id: string,
    reason: AppError,
  ) {
    this.error = new AppError('MODEL_REQUEST_FAILED', reason.message, {
      retryable: false,
      details: { model: id },
    });
  }

  /** A stream whose first read fails with the reason. */
  stream(_request: ModelRequest, _signal?: AbortSignal): AsyncIterable<ModelStreamEvent> {
    const error = this.error;
    return { [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(error) }) };
  }
}
