import { setTimeout as wait } from 'node:timers/promises';

interface PollOptions {
  /** Pause between probes; short where the test measures how soon something happens. */
  everyMs?: number;
  /** Treat a probe that throws (a server not listening yet) as "not yet" instead of failing at once. */
  retryErrors?: boolean;
}

type Miss = undefined | null | false;

/**
 * Probes until `probe` returns a value (anything but undefined, null or false) and returns it; fails
 * naming `what` after `timeoutMs`. The one polling loop of the test launchers and end-to-end tests, for
 * conditions that only a request can observe (no event or stream item to await).
 */
export async function pollUntil<T>(
  what: string,
  probe: () => Promise<T | Miss> | T | Miss,
  timeoutMs = 60_000,
  { everyMs = 100, retryErrors = false }: PollOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== null && value !== false) return value;
    } catch (error) {
      if (!retryErrors) throw error;
      lastError = error;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`, { cause: lastError });
    await wait(everyMs);
  }
}

/**
 * Probes until `accept` takes the probed value and returns it; fails with the last value seen after
 * `timeoutMs`.
 */
export async function pollFor<T>(
  what: string,
  probe: () => Promise<T> | T,
  accept: (value: T) => boolean,
  timeoutMs: number,
  options: PollOptions = {},
): Promise<T> {
  let last: T | undefined;
  try {
    return (
      await pollUntil(
        what,
        async () => {
          last = await probe();
          return accept(last) ? { value: last } : undefined;
        },
        timeoutMs,
        options,
      )
    ).value;
  } catch (error) {
    if (last === undefined) throw error;
    const shown = JSON.stringify(last, (_key, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
    throw new Error(`${what}: still ${shown} after ${timeoutMs} ms`, { cause: error });
  }
}
