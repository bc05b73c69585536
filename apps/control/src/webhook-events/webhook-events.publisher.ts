import { Inject, Injectable } from '@nestjs/common';
import { ID_PREFIXES, Jobs, newId, type Actor } from '@agentry/contracts';
import { CLOCK, JobQueue, LOGGER, type Clock, type Logger } from '@agentry/platform';
import { webhookEventOf } from './webhook-event-types.js';

export interface RecordedChange {
  action: string;
  resourceType: string;
  resourceId?: string | null;
  details?: Record<string, unknown>;
}

/**
 * Hands a recorded change to the scheduler's webhook fan-out (BullMQ `webhook-event`), once it committed.
 * A change with no webhook event is ignored; a failure to enqueue is logged and never fails the change.
 */
@Injectable()
export class WebhookEventsPublisher {
  constructor(
    private readonly jobs: JobQueue,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async changed(actor: Actor, change: RecordedChange): Promise<void> {
    const type = webhookEventOf(change.resourceType, change.action);
    if (!type || !change.resourceId) return;
    const vaultId = change.details?.['vaultId'];
    try {
      await this.jobs.enqueue(Jobs.webhookEvent, {
        eventId: newId(ID_PREFIXES.webhookEvent),
        type,
        occurredAt: this.clock.now().toISOString(),
        resourceId: change.resourceId,
        tenantId: actor.tenantId,
        namespaceId: actor.namespaceId,
        ...(type.startsWith('session.') ? { sessionId: change.resourceId } : {}),
        ...(typeof vaultId === 'string' ? { vaultId } : {}),
      });
    } catch (error) {
      this.logger.error({ err: error, type, resourceId: change.resourceId }, 'could not queue webhook event');
    }
  }
}
