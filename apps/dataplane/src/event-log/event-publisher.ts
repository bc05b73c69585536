import { Inject, Injectable } from '@nestjs/common';
import {
  Jobs,
  PubSubjects,
  type StoredEvent,
  type StreamOnlyBatch,
  type WebhookEventJob,
} from '@agentry/contracts';
import { JobQueue, LOGGER, NatsBus, type Logger } from '@agentry/platform';
import { DATAPLANE_CONFIG, type DataplaneEnv } from '../config/env.js';
import { PreviewBatcher } from './preview-batcher.js';
import { sessionWebhookEvents } from './session-webhook-events.js';
import { WebhookAudience } from './webhook-audience.js';

/**
 * Announces committed events to live streams, and hands the ones webhook endpoints may subscribe to
 * (status changes, threads, outcomes) to the scheduler's webhook fan-out when the session's namespace
 * has an endpoint (WebhookAudience). Called only after the transaction committed.
 */
@Injectable()
export class EventPublisher {
  constructor(
    private readonly bus: NatsBus,
    private readonly jobs: JobQueue,
    private readonly webhooks: WebhookAudience,
    @Inject(DATAPLANE_CONFIG) private readonly config: DataplaneEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  published(sessionId: string, events: StoredEvent[]): void {
    for (const event of events) this.bus.publish(PubSubjects.sessionEvents(sessionId), event);
    const webhookEvents = events.flatMap((event) => sessionWebhookEvents(sessionId, event));
    if (webhookEvents.length > 0) void this.queueWebhookEvents(sessionId, webhookEvents);
  }

  private async queueWebhookEvents(sessionId: string, webhookEvents: WebhookEventJob[]): Promise<void> {
    if (!(await this.webhooks.hasEndpoints(sessionId))) return;
    for (const webhookEvent of webhookEvents)
      this.jobs
        .enqueue(Jobs.webhookEvent, webhookEvent)
        .catch((error: unknown) =>
          this.logger.error(
            { err: error, sessionId, type: webhookEvent.type },
            'could not queue webhook event',
          ),
        );
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
