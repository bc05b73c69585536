/**
 * How long each step of a piece of work took (opening a session's sandbox), for the debug log that
 * profiles it. Steps may run in parallel: their times need not add up to the total.
 */
export class StepTimings {
  private readonly started = performance.now();
  private readonly steps: Record<string, number> = {};

  async time<T>(step: string, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.steps[step] = rounded(performance.now() - started);
    }
  }

  /** Milliseconds per step, and since this was made. */
  summary(): { totalMs: number; stepsMs: Record<string, number> } {
    return { totalMs: rounded(performance.now() - this.started), stepsMs: { ...this.steps } };
  }
}

function rounded(ms: number): number {
  return Math.round(ms * 10) / 10;
}
