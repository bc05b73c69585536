import type { Clock } from './clock.js';

/** A clock that moves only when told to: tests set the time a behaviour depends on instead of waiting. */
export class ManualClock implements Clock {
  private currentMs: number;

  constructor(start: Date | number = 0) {
    this.currentMs = typeof start === 'number' ? start : start.getTime();
  }

  now(): Date {
    return new Date(this.currentMs);
  }

  nowMs(): number {
    return this.currentMs;
  }

  advance(ms: number): void {
    this.currentMs += ms;
  }

  set(at: Date | number): void {
    this.currentMs = typeof at === 'number' ? at : at.getTime();
  }
}
