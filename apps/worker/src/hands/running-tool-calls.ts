import { Inject, Injectable } from '@nestjs/common';
import type { HandsCancel } from '@agentry/contracts';
import { CLOCK, type Clock } from '@agentry/platform';

/** How long a cancel is remembered for a call this worker has not started (it may still arrive). */
const EARLY_CANCEL_TTL_MS = 60_000;

/**
 * The tool calls this worker is running, each with the AbortController its cancel aborts. A cancel
 * that arrives before its call (they travel on different subjects) is kept a while, so the call is
 * refused when it shows up rather than run after its turn gave up on it.
 */
@Injectable()
export class RunningToolCalls {
  private readonly running = new Map<string, AbortController>();
  private readonly early = new Map<string, { reason: HandsCancel['reason']; at: number }>();

  constructor(@Inject(CLOCK) private readonly clock: Clock) {}

  /** The signal the call runs under; already aborted when the call was cancelled before it came. */
  start(toolUseId: string): AbortSignal {
    const controller = new AbortController();
    const early = this.early.get(toolUseId);
    if (early) controller.abort(early.reason);
    else this.running.set(toolUseId, controller);
    return controller.signal;
  }

  get count(): number {
    return this.running.size;
  }

  finish(toolUseId: string): void {
    this.running.delete(toolUseId);
  }

  /** Aborts the call if this worker runs it; remembers the cancel otherwise. */
  cancel(toolUseId: string, reason: HandsCancel['reason']): boolean {
    const controller = this.running.get(toolUseId);
    if (controller) {
      controller.abort(reason);
      return true;
    }
    const now = this.clock.nowMs();
    for (const [id, entry] of this.early) if (now - entry.at > EARLY_CANCEL_TTL_MS) this.early.delete(id);
    this.early.set(toolUseId, { reason, at: now });
    return false;
  }
}
