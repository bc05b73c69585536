import type { StoredEvent } from '@agentry/contracts';
import { TurnAborted } from '../hands/hands-cancel.js';
import type { SessionInterrupts } from '../drain/session-interrupts.js';

export function isInterrupt(event: StoredEvent): boolean {
  return event.event.type === 'user.interrupt';
}

/**
 * The input one turn acts on. An interrupt jumps the queue: input queued before it is recorded but
 * not answered (the turn starts already interrupted); input after it waits for the next turn.
 */
export function turnInput(inbox: StoredEvent[]): { input: StoredEvent[]; interrupted: boolean } {
  const last = inbox.findLastIndex(isInterrupt);
  return last < 0
    ? { input: inbox, interrupted: false }
    : { input: inbox.slice(0, last + 1), interrupted: true };
}

/**
 * Everything that stops one turn early: a `user.interrupt` (from its input, or announced on NATS
 * from the moment the lease is held) or the loss of its lease. The signal's reason says which, so the Hands learn why.
 */
export class TurnAbort {
  private readonly controller = new AbortController();
  private readonly heard = new Set<string>();
  private readonly stopWatching: () => void;
  private readonly onLeaseLost = () => this.controller.abort(new TurnAborted('lease_lost'));

  constructor(
    interrupts: SessionInterrupts,
    sessionId: string,
    private readonly leaseLost: AbortSignal,
  ) {
    leaseLost.addEventListener('abort', this.onLeaseLost, { once: true });
    this.stopWatching = interrupts.watch(sessionId, (eventId) => {
      this.heard.add(eventId);
      this.interruptNow();
    });
    if (leaseLost.aborted) this.onLeaseLost();
  }

  /** For an interrupt found in the turn's own input. */
  interruptNow(): void {
    this.controller.abort(new TurnAborted('interrupted'));
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Interrupts that arrived while the turn ran: the turn consumes them as it ends. */
  get interruptsHeard(): string[] {
    return [...this.heard];
  }

  dispose(): void {
    this.leaseLost.removeEventListener('abort', this.onLeaseLost);
    this.stopWatching();
  }
}
