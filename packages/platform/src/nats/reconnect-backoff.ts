import { SystemClock, type Clock } from '../clock/clock.js';

export interface ReconnectBackoffOptions {
  /** Wait before the first retry of an outage (ms). */
  initialMs?: number;
  /** Longest wait between retries, however long the outage lasts (ms). */
  maxMs?: number;
}

/**
 * A NATS `reconnectDelayHandler` that backs off while an outage lasts: the wait grows with the time
 * since the outage began (about ×1.5 per attempt) up to `maxMs`, with ±20 % jitter so replicas do not
 * reconnect in lock-step. The client calls it on every pass of its dial loop and never says when it
 * connected again, so a pause longer than twice the cap between calls marks a new outage.
 */
export function reconnectBackoff(
  options: ReconnectBackoffOptions = {},
  clock: Clock = new SystemClock(),
): () => number {
  const initialMs = options.initialMs ?? 250;
  const maxMs = options.maxMs ?? 3_000;
  let outageStartedAt = 0;
  let lastCallAt = Number.NEGATIVE_INFINITY;
  return () => {
    const at = clock.nowMs();
    if (at - lastCallAt > 2 * maxMs) outageStartedAt = at;
    lastCallAt = at;
    const base = Math.min(maxMs, Math.max(initialMs, (at - outageStartedAt) / 2));
    return Math.round(base * (0.8 + Math.random() * 0.4));
  };
}
