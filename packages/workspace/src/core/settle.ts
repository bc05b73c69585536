/**
 * Runs synchronous work as a promise, at once: a throw rejects the promise, as it would in an async
 * method, and nothing yields between the work's steps.
 */
export function settle<T>(work: () => T): Promise<T> {
  return new Promise((resolve) => resolve(work()));
}
