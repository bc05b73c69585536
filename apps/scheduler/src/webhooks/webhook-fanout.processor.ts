import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Jobs, type WebhookEvent, type WebhookEventJob, type WebhookEventType } from '@agentry/contracts';
import { JobQueue, LOGGER, type Logger } from '@agentry/platform';
import { SCHEDULER_CONFIG, type SchedulerEnv } from '../config/env.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';
import { deliveryJob } from './webhook-jobs.js';

/**
 * Turns one event into one delivery per subscribed endpoint: the rows first, then a delivery job each
 * (named by the delivery id, so a repeated fan-out queues nothing twice). The endpoints are those enabled
 * when the event is fanned out; an endpoint disabled meanwhile never gets it, as in CMA.
 */
@Injectable()
export class WebhookFanoutProcessor implements OnApplicationBootstrap {
  constructor(
    private readonly jobs: JobQueue,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    @Inject(SCHEDULER_CONFIG) private readonly config: SchedulerEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.jobs.process(Jobs.webhookEvent, (payload) => this.fanOut(payload), 4);
  }

  async fanOut(job: WebhookEventJob): Promise<void> {
    const owner = await this.ownerOf(job);
    if (!owner) {
      this.logger.info(
        { eventId: job.eventId, type: job.type },
        'webhook event of a vanished session dropped',
      );
      return;
    }
    const subscribers = await this.endpoints.subscribers(
      owner.tenantId,
      owner.namespaceId,
      job.type,
      job.sessionId,
    );
    const event = toWebhookEvent(job, owner);
    const ids = await this.deliveries.createFor(
      owner.tenantId,
      subscribers.map((s) => s.id),
      event,
    );
    const delivery = deliveryJob(this.config);
    for (const deliveryId of ids)
      await this.jobs.enqueue(delivery, { deliveryId, tenantId: owner.tenantId }, 0, deliveryId);
  }

  private async ownerOf(job: WebhookEventJob): Promise<{ tenantId: string; namespaceId: string } | null> {
    if (job.tenantId && job.namespaceId) return { tenantId: job.tenantId, namespaceId: job.namespaceId };
    return job.sessionId ? this.endpoints.sessionOwner(job.sessionId) : null;
  }
}

function toWebhookEvent(
  job: WebhookEventJob,
  owner: { tenantId: string; namespaceId: string },
): WebhookEvent {
  return {
    id: job.eventId,
    type: 'event',
    created_at: job.occurredAt,
    data: {
      type: job.type as WebhookEventType,
      id: job.resourceId,
      organization_id: owner.tenantId,
      workspace_id: owner.namespaceId,
      ...(job.sessionThreadId ? { session_thread_id: job.sessionThreadId } : {}),
      ...(job.vaultId ? { vault_id: job.vaultId } : {}),
    },
  };
}
