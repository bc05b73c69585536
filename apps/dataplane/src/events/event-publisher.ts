import { Injectable } from '@nestjs/common';
import { PubSubjects, type StoredEvent } from '@agentry/contracts';
import { NatsBus } from '@agentry/platform';

/** Announces committed events to live streams. Called only after the transaction committed. */
@Injectable()
export class EventPublisher {
  constructor(private readonly bus: NatsBus) {}

  published(sessionId: string, events: StoredEvent[]): void {
    for (const event of events) this.bus.publish(PubSubjects.sessionEvents(sessionId), event);
  }

  /**
   * Tells the runner of the session's turn, wherever it runs, to stop now: sent as the interrupt is
   * committed, not when a turn gets to it, so it overtakes whatever input is queued before it.
   */
  interrupted(sessionId: string, events: StoredEvent[]): void {
    for (const event of events) {
      if (event.event.type === 'user.interrupt') this.bus.publish(PubSubjects.sessionInterrupt(sessionId), event);
    }
  }

  /** Stream-only previews; never persisted. */
  preview(sessionId: string, delta: Record<string, unknown>): void {
    this.bus.publish(PubSubjects.sessionDeltas(sessionId), delta);
  }
}
