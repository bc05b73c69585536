import { Inject, Injectable } from '@nestjs/common';
import { AppError, type Actor, type ListParams, type Page, type WebhookDelivery } from '@agentry/contracts';
import { decodeIdCursor, encodeCursor } from '@agentry/contracts/v1';
import { JobQueue } from '@agentry/platform';
import { SCHEDULER_CONFIG, type SchedulerEnv } from '../config/env.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';
import { deliveryJob } from './webhook-jobs.js';
import { toWebhookDeliveryDto } from './webhook-delivery.mapper.js';

/** An endpoint's delivery log, newest first, and manual redelivery. */
@Injectable()
export class WebhookDeliveriesService {
  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly jobs: JobQueue,
    @Inject(SCHEDULER_CONFIG) private readonly config: SchedulerEnv,
  ) {}

  async list(actor: Actor, webhookId: string, query: ListParams): Promise<Page<WebhookDelivery>> {
    await this.requireEndpoint(actor, webhookId);
    const rows = await this.deliveries.list(actor.tenantId, webhookId, {
      limit: query.limit + 1,
      beforeId: decodeIdCursor(query.page),
    });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      data: page.map(toWebhookDeliveryDto),
      next_page: rows.length > query.limit && last ? encodeCursor(last.id) : null,
    };
  }

  async get(actor: Actor, webhookId: string, deliveryId: string): Promise<WebhookDelivery> {
    return toWebhookDeliveryDto(await this.require(actor, webhookId, deliveryId));
  }

  /** Sends a settled delivery again with the same event id; one still being attempted is a 409. */
  async redeliver(actor: Actor, webhookId: string, deliveryId: string): Promise<WebhookDelivery> {
    if (actor.role === 'viewer') throw new AppError('PERMISSION_DENIED', 'This key or user may only read');
    const delivery = await this.require(actor, webhookId, deliveryId);
    if (delivery.status === 'pending')
      throw new AppError(
        'CONFLICT',
        `Delivery ${deliveryId} is still being attempted; wait until it settles`,
      );
    await this.deliveries.reopen(delivery.id);
    await this.jobs.enqueue(
      deliveryJob(this.config),
      { deliveryId: delivery.id, tenantId: actor.tenantId },
      0,
      `${delivery.id}-r${delivery.attempts}`,
    );
    return toWebhookDeliveryDto({ ...delivery, status: 'pending' });
  }

  private async require(actor: Actor, webhookId: string, deliveryId: string) {
    await this.requireEndpoint(actor, webhookId);
    const row = await this.deliveries.findOfEndpoint(actor.tenantId, webhookId, deliveryId);
    if (!row) throw new AppError('NOT_FOUND', `Delivery ${deliveryId} not found`);
    return row;
  }

  private async requireEndpoint(actor: Actor, webhookId: string): Promise<void> {
    if (!(await this.endpoints.inNamespace(actor.tenantId, actor.namespaceId, webhookId)))
      throw new AppError('NOT_FOUND', `Webhook endpoint ${webhookId} not found`);
  }
}
