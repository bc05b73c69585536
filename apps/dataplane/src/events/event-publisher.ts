import { Inject, Injectable } from '@nestjs/common';
import { PubSubjects, type StoredEvent, type StreamOnlyBatch } from '@agentry/contracts';
import { NatsBus } from '@agentry/platform';
import { DATAPLANE_CONFIG, type DataplaneEnv } from '../config/env.js';
import { PreviewBatcher } from './preview-batcher.js';

/** Announces committed events to live streams. Called only after the transaction committed. */
@Injectable()
export class EventPublisher {
  constructor(
    private readonly bus: NatsBus,
    @Inject(DATAPLANE_CONFIG) private readonly config: DataplaneEnv,
  ) {}

  published(sessionId: string, events: StoredEvent[]): void {
    for (const event of events) this.bus.publish(PubSubjects.sessionEvents(sessionId), event);
  }

  /**
   * Tells the runner of the session's turn, wherever it runs, to stop now: sent as the interrupt is
   * committed, not when a turn gets to it, so it overtakes whatever input is queued before it.
   */
  interrupted(sessionId: string, events: StoredEvent[]): void {
    for (const event of events) {
      if (event.event.type === 'user.interrupt')
        this.bus.publish(PubSubjects.sessionInterrupt(sessionId), event);
    }
  }

  /**
   * Stream-only previews of one turn, never persisted: batched on `delta.<sessionId>`, a subject only
   * gateways with a client that asked for previews of this session listen to.
   */
  previews(sessionId: string): PreviewBatcher {
    const subject = PubSubjects.sessionDeltas(sessionId);
    return new PreviewBatcher(
      (events) => this.bus.publish(subject, { events } satisfies StreamOnlyBatch),
      this.config.AGENTRY_DELTA_FLUSH_MS,
    );
  }
}
