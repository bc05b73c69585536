import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import type { ServiceDatabase, Webhook } from '@agentry/db';

export type EndpointTarget = Pick<Webhook, 'id' | 'tenantId' | 'namespaceId' | 'url' | 'enabled'>;

/** Reads control's webhook endpoints (control writes them) and the sessions events are about. */
@Injectable()
export class WebhookEndpointsRepository {
  constructor(@Inject(DATABASE) private readonly db: ServiceDatabase<'scheduler'>) {}

  /**
   * The enabled endpoints of the namespace subscribed to `type`: those for the whole namespace, and, for
   * a session's event, those for that session.
   */
  subscribers(
    tenantId: string,
    namespaceId: string,
    type: string,
    sessionId: string | undefined,
  ): Promise<Array<{ id: string }>> {
    return this.db.webhook.findMany({
      where: {
        tenantId,
        namespaceId,
        enabled: true,
        archivedAt: null,
        eventTypes: { has: type },
        OR: [{ sessionId: null }, ...(sessionId ? [{ sessionId }] : [])],
      },
      select: { id: true },
    });
  }

  find(tenantId: string, id: string): Promise<EndpointTarget | null> {
    return this.db.webhook.findFirst({
      where: { id, tenantId, archivedAt: null },
      select: { id: true, tenantId: true, namespaceId: true, url: true, enabled: true },
    });
  }

  inNamespace(tenantId: string, namespaceId: string, id: string): Promise<{ id: string } | null> {
    return this.db.webhook.findFirst({
      where: { id, tenantId, namespaceId, archivedAt: null },
      select: { id: true },
    });
  }

  sessionOwner(sessionId: string): Promise<{ tenantId: string; namespaceId: string } | null> {
    return this.db.session.findUnique({
      where: { id: sessionId },
      select: { tenantId: true, namespaceId: true },
    });
  }
}
