import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import type { Prisma, ServiceDatabase, Webhook } from '@agentry/db';
import type { Actor } from '@agentry/contracts';
import { inNamespace } from '../common/namespaced-rows.js';

export interface WebhookListOptions {
  limit: number;
  afterId?: string;
  order: 'asc' | 'desc';
}

/** Webhook endpoints of a namespace; deleted endpoints are removed with their delivery log. */
@Injectable()
export class WebhooksRepository {
  constructor(@Inject(DATABASE) private readonly db: ServiceDatabase<'control'>) {}

  create(data: Prisma.WebhookUncheckedCreateInput): Promise<Webhook> {
    return this.db.webhook.create({ data });
  }

  find(actor: Actor, id: string): Promise<Webhook | null> {
    return this.db.webhook.findFirst({ where: { ...inNamespace(actor, id), archivedAt: null } });
  }

  findInTenant(tenantId: string, id: string): Promise<Webhook | null> {
    return this.db.webhook.findFirst({ where: { id, tenantId, archivedAt: null } });
  }

  list(actor: Actor, options: WebhookListOptions): Promise<Webhook[]> {
    const after = options.afterId
      ? { id: options.order === 'asc' ? { gt: options.afterId } : { lt: options.afterId } }
      : {};
    return this.db.webhook.findMany({
      where: { tenantId: actor.tenantId, namespaceId: actor.namespaceId, archivedAt: null, ...after },
      orderBy: { id: options.order },
      take: options.limit,
    });
  }

  update(tenantId: string, id: string, data: Prisma.WebhookUncheckedUpdateInput): Promise<Webhook> {
    return this.db.webhook.update({ where: { id, tenantId }, data });
  }

  /** Adds one exhausted delivery to the endpoint's run of failures and answers the new count. */
  async countFailure(tenantId: string, id: string): Promise<number> {
    const row = await this.db.webhook.update({
      where: { id, tenantId },
      data: { consecutiveFailures: { increment: 1 } },
      select: { consecutiveFailures: true },
    });
    return row.consecutiveFailures;
  }

  /** Disables the endpoint unless it already is: true when this call disabled it. */
  async disable(tenantId: string, id: string, reason: string): Promise<boolean> {
    const { count } = await this.db.webhook.updateMany({
      where: { id, tenantId, enabled: true },
      data: { enabled: false, disabledReason: reason },
    });
    return count === 1;
  }

  async delete(actor: Actor, id: string): Promise<void> {
    await this.db.webhook.delete({ where: inNamespace(actor, id) });
  }
}
