import { setTimeout as wait } from 'node:timers/promises';

/**
 * The only sleeps a test may take, each named for why no condition can replace it. A test waiting for
 * something to happen uses `vi.waitFor`; these are for the cases where the wait itself is the point.
 */

/** A window in which something must NOT happen (no event arrives, nothing is deleted): the test checks after it. */
export function quietPeriod(ms: number): Promise<void> {
  return wait(ms);
}

/**
 * Real time for a TTL kept outside the process (a Postgres `now()` lease, a Redis expiry) to run out:
 * no injected clock reaches it.
 */
export function letExpire(ms: number): Promise<void> {
  return wait(ms);
}

/** A client's pause before it retries what a server refused for now (a 503 asking to come back later). */
export function backOff(ms: number): Promise<void> {
  return wait(ms);
}

/**
 * How long a fault a test injects lasts (a server kept down), or the random moment before it strikes:
 * the timing is the scenario under test, not a synchronisation.
 */
export function holdFault(ms: number): Promise<void> {
  return wait(ms);
}
