import { AppError, type ErrorCode } from '@agentry/contracts';
import { expect } from 'vitest';

/** Asserts that `promise` rejects with an AppError carrying `code`. */
export async function expectAppError(promise: Promise<unknown>, code: ErrorCode): Promise<AppError> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(caught, `expected ${code}`).toBeInstanceOf(AppError);
  expect((caught as AppError).code).toBe(code);
  return caught as AppError;
}
