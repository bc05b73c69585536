import { Injectable } from '@nestjs/common';
import { PubSubjects } from '@agentry/contracts';
import { NatsBus } from '@agentry/platform';

/** Tells a running turn that its session was interrupted (`interrupt.<sessionId>` on NATS). */
@Injectable()
export class SessionInterrupts {
  constructor(private readonly bus: NatsBus) {}

  /** Calls `onInterrupt` on each interrupt of the session until the returned function is called. */
  watch(sessionId: string, onInterrupt: () => void): () => void {
    return this.bus.subscribe(PubSubjects.sessionInterrupt(sessionId), onInterrupt);
  }
}
