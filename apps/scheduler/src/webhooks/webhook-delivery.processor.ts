import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { WebhookDeliverySupportSubjects as Support, type WebhookDeliveryJob } from '@agentry/contracts';
import { JobQueue, LOGGER, RpcClient, type Logger } from '@agentry/platform';
import { SCHEDULER_CONFIG, type SchedulerEnv } from '../config/env.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';
import { deliveryJob } from './webhook-jobs.js';
import { WebhookSender } from './webhook-sender.js';

/** Which attempt of its job this is, and how many the job has. */
interface AttemptOfJob {
  attemptsMade: number;
  opts: { attempts?: number };
}

/** A failed attempt that BullMQ retries after the backoff; its message is what the receiver did. */
class DeliveryAttemptFailed extends Error {}

/**
 * Sends one delivery per job attempt, at least once: the attempt is logged before the job settles, a failure
 * is thrown so BullMQ retries it (exponential backoff with jitter), and the last failure settles the delivery
 * as failed and tells control, which disables an endpoint after enough of them in a row.
 */
@Injectable()
export class WebhookDeliveryProcessor implements OnApplicationBootstrap {
  constructor(
    private readonly jobs: JobQueue,
    private readonly rpc: RpcClient,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly sender: WebhookSender,
    @Inject(SCHEDULER_CONFIG) private readonly config: SchedulerEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.jobs.process(
      deliveryJob(this.config),
      (payload, job) => this.deliver(payload, job),
      this.config.AGENTRY_WEBHOOK_CONCURRENCY,
    );
  }

  async deliver(payload: WebhookDeliveryJob, job: AttemptOfJob): Promise<void> {
    const delivery = await this.deliveries.find(payload.tenantId, payload.deliveryId);
    if (delivery?.status !== 'pending') return;
    const endpoint = await this.endpoints.find(payload.tenantId, delivery.webhookId);
    if (!endpoint?.enabled) {
      await this.deliveries.abandon(delivery.id, 'The endpoint was disabled or deleted before delivery');
      return;
    }
    const { secrets } = await this.rpc.request(Support.signingSecrets, {
      tenantId: payload.tenantId,
      webhookId: endpoint.id,
    });
    const result = await this.sender.send(endpoint.url, {
      id: delivery.eventId,
      body: JSON.stringify(delivery.payload),
      secrets,
    });
    const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    const outcome = result.error === null ? 'succeeded' : last ? 'failed' : 'retrying';
    await this.deliveries.recordAttempt(delivery.id, result, outcome);
    if (outcome === 'retrying') throw new DeliveryAttemptFailed(result.error ?? 'delivery failed');
    if (outcome === 'failed')
      this.logger.warn({ deliveryId: delivery.id, webhookId: endpoint.id }, 'webhook delivery failed');
    const { disabled } = await this.rpc.request(Support.recordOutcome, {
      tenantId: payload.tenantId,
      webhookId: endpoint.id,
      outcome,
    });
    if (disabled) this.logger.warn({ webhookId: endpoint.id }, 'webhook endpoint disabled');
  }
}
