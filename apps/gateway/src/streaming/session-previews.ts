import { PubSubjects, StreamOnlyBatchSchema, type DeltaType, type StreamOnlyEvent } from '@agentry/contracts';
import type { NatsBus } from '@agentry/platform';
import type { SseConnection } from './sse-connection.js';
import { previewFrame } from './sse-frame.js';

/**
 * The token previews of one watched session (`event_deltas[]`). Subscribed on NATS only while one
 * of the session's clients asked for previews, so sessions nobody previews cost this gateway nothing.
 * Previews go to live clients only: they are never persisted, so never replayed.
 */
export class SessionPreviews {
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly sessionId: string,
    private readonly bus: NatsBus,
    private readonly connections: ReadonlySet<SseConnection>,
    /** Runs delivery in the channel's order, behind events that arrived before. */
    private readonly enqueue: (task: () => Promise<void>) => void,
  ) {}

  /** Subscribes while any client wants previews; unsubscribes when the last one leaves. */
  refresh(): void {
    const wanted = [...this.connections].some((c) => c.deltas.size > 0);
    if (wanted && !this.unsubscribe) {
      this.unsubscribe = this.bus.subscribe(PubSubjects.sessionDeltas(this.sessionId), (message) => {
        const parsed = StreamOnlyBatchSchema.safeParse(message);
        if (parsed.success)
          this.enqueue(() => {
            this.fanOut(parsed.data.events);
            return Promise.resolve();
          });
      });
    } else if (!wanted) this.close();
  }

  close(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private fanOut(events: StreamOnlyEvent[]): void {
    for (const event of events) {
      const type = previewedType(event);
      let frame: string | undefined;
      for (const connection of this.connections) {
        if (!connection.live || !connection.deltas.has(type)) continue;
        connection.write((frame ??= previewFrame(event)));
      }
    }
  }
}

/** `event_delta` carries text of `agent.message` only (thinking previews are start-only). */
function previewedType(event: StreamOnlyEvent): DeltaType {
  return event.type === 'event_start' ? event.event.type : 'agent.message';
}
