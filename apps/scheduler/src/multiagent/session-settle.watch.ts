import { PubSubjects, StoredEventSchema } from '@agentry/contracts';
import type { NatsBus } from '@agentry/platform';

export type SettledStatus = 'idle' | 'terminated';

const SETTLED: Record<string, SettledStatus> = {
  'session.status_idle': 'idle',
  'session.status_terminated': 'terminated',
};

/**
 * Waits for a session to go idle or terminate by listening to its committed events on NATS. Open it
 * before sending the message, so the status event of that turn cannot slip past.
 */
export class SessionSettleWatch {
  private settled: SettledStatus | null = null;
  private wake: (() => void) | undefined;
  private readonly unsubscribe: () => void;

  private constructor(bus: NatsBus, sessionId: string) {
    this.unsubscribe = bus.subscribe(PubSubjects.sessionEvents(sessionId), (message) => {
      const parsed = StoredEventSchema.safeParse(message);
      const status = parsed.success ? SETTLED[parsed.data.event.type] : undefined;
      if (!status) return;
      this.settled = status;
      this.wake?.();
    });
  }

  /** Subscribed once the server has the subscription, so events committed afterwards reach it. */
  static async open(bus: NatsBus, sessionId: string): Promise<SessionSettleWatch> {
    const watch = new SessionSettleWatch(bus, sessionId);
    await bus.flush();
    return watch;
  }

  /** The status the session settled in, or null when `timeoutMs` passed first. */
  async settledWithin(timeoutMs: number): Promise<SettledStatus | null> {
    if (this.settled) return this.settled;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.wake = resolve;
      timer = setTimeout(resolve, Math.max(0, timeoutMs));
    });
    clearTimeout(timer);
    return this.settled;
  }

  close(): void {
    this.unsubscribe();
  }
}
