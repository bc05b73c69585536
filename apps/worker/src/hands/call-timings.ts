/**
 * Where one tool call's time went on this worker, step by step, for a debug-level log line (the profile
 * in docs/performance.md "## Hands" was read from these).
 */
export class CallTimings {
  private readonly started = performance.now();
  private last = this.started;
  private readonly steps: Record<string, number> = {};

  /** Ends the step running since the previous mark (or the start) under `step`. */
  mark(step: string): void {
    const now = performance.now();
    this.steps[step] = round(now - this.last);
    this.last = now;
  }

  /** The steps in ms, and the total since the start. */
  summary(): Record<string, number> {
    return { ...this.steps, total: round(this.last - this.started) };
  }
}

const round = (ms: number) => Math.round(ms * 100) / 100;
