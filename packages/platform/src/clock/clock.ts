/**
 * The current time, as a port: services read it from the injected clock so tests can set it instead of
 * waiting for it. Durations measured for metrics and tracing keep using the monotonic timers.
 */
export interface Clock {
  now(): Date;
  nowMs(): number;
}

/** Wall-clock time; the only place in the services that reads it directly. */
export class SystemClock implements Clock {
  now(): Date {
    return new Date();
  }

  nowMs(): number {
    return Date.now();
  }
}
