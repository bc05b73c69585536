import { Injectable } from '@nestjs/common';
import { PubSubjects, StoredEventSchema } from '@agentry/contracts';
import { NatsBus } from '@agentry/platform';

/** Tells a running turn that its session was interrupted (`interrupt.<sessionId>` on NATS). */
@Injectable()
export class SessionInterrupts {
  constructor(private readonly bus: NatsBus) {}

  /**
   * Calls `onInterrupt` with the id of each `user.interrupt` appended to the session until the
   * returned function is called.
   */
  watch(sessionId: string, onInterrupt: (eventId: string) => void): () => void {
    return this.bus.subscribe(PubSubjects.sessionInterrupt(sessionId), (message) => {
      const parsed = StoredEventSchema.safeParse(message);
      if (parsed.success && parsed.data.event.type === 'user.interrupt') onInterrupt(parsed.data.event.id);
    });
  }
}
