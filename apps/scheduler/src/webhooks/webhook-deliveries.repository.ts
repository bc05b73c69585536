import { Inject, Injectable } from '@nestjs/common';
import { ID_PREFIXES, newId, type WebhookEvent } from '@agentry/contracts';
import { CLOCK, DATABASE, type Clock } from '@agentry/platform';
import type { ServiceDatabase, WebhookDelivery, WebhookDeliveryAttempt } from '@agentry/db';

export type DeliveryWithAttempts = WebhookDelivery & { attemptLog: WebhookDeliveryAttempt[] };

export interface AttemptResult {
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

const withAttempts = { attemptLog: { orderBy: { attempt: 'asc' } } } as const;

/** The `webhook_deliveries` log and its attempts, owned by the scheduler. */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(
    @Inject(DATABASE) private readonly db: ServiceDatabase<'scheduler'>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * One pending delivery of `event` per endpoint; an endpoint that already has this event keeps its row
   * (a repeated fan-out adds nothing). Answers the ids of every delivery of the event to these endpoints.
   */
  async createFor(tenantId: string, webhookIds: string[], event: WebhookEvent): Promise<string[]> {
    if (webhookIds.length === 0) return [];
    await this.db.webhookDelivery.createMany({
      data: webhookIds.map((webhookId) => ({
        id: newId(ID_PREFIXES.webhookDelivery),
        tenantId,
        webhookId,
        eventId: event.id,
        eventType: event.data.type,
        payload: event,
      })),
      skipDuplicates: true,
    });
    const rows = await this.db.webhookDelivery.findMany({
      where: { tenantId, eventId: event.id, webhookId: { in: webhookIds }, status: 'pending' },
      select: { id: true },
    });
    return rows.map((row) => row.id);
  }

  find(tenantId: string, id: string): Promise<DeliveryWithAttempts | null> {
    return this.db.webhookDelivery.findFirst({ where: { id, tenantId }, include: withAttempts });
  }

  findOfEndpoint(tenantId: string, webhookId: string, id: string): Promise<DeliveryWithAttempts | null> {
    return this.db.webhookDelivery.findFirst({ where: { id, tenantId, webhookId }, include: withAttempts });
  }

  list(
    tenantId: string,
    webhookId: string,
    page: { limit: number; beforeId?: string },
  ): Promise<DeliveryWithAttempts[]> {
    return this.db.webhookDelivery.findMany({
      where: { tenantId, webhookId, ...(page.beforeId ? { id: { lt: page.beforeId } } : {}) },
      orderBy: { id: 'desc' },
      take: page.limit,
      include: withAttempts,
    });
  }

  /** Logs one attempt and what it left the delivery as; `final` settles a failure for good. */
  async recordAttempt(
    id: string,
    result: AttemptResult,
    outcome: 'succeeded' | 'retrying' | 'failed',
  ): Promise<void> {
    const now = this.clock.now();
    await this.db.$transaction(async (tx) => {
      const row = await tx.webhookDelivery.update({
        where: { id },
        data: {
          attempts: { increment: 1 },
          status: outcome === 'retrying' ? 'pending' : outcome,
          lastStatusCode: result.statusCode,
          lastLatencyMs: result.latencyMs,
          lastError: result.error,
          ...(outcome === 'succeeded' ? { deliveredAt: now } : {}),
        },
        select: { attempts: true },
      });
      await tx.webhookDeliveryAttempt.create({
        data: {
          id: newId(ID_PREFIXES.webhookDeliveryAttempt),
          deliveryId: id,
          attempt: row.attempts,
          statusCode: result.statusCode,
          latencyMs: result.latencyMs,
          error: result.error,
          createdAt: now,
        },
      });
    });
  }

  /** Puts a settled delivery back to pending for a manual redelivery; its attempt log stays. */
  async reopen(id: string): Promise<void> {
    await this.db.webhookDelivery.update({ where: { id }, data: { status: 'pending' } });
  }

  /** Settles a delivery whose endpoint was disabled or deleted meanwhile: nothing more is sent. */
  async abandon(id: string, reason: string): Promise<void> {
    await this.db.webhookDelivery.update({ where: { id }, data: { status: 'failed', lastError: reason } });
  }
}
