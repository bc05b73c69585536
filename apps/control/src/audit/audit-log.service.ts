import { Inject, Injectable } from '@nestjs/common';
import { newId, type Actor, type AuditEntry, type AuditListQuery, type Page } from '@agentry/contracts';
import { LOGGER, type Logger } from '@agentry/platform';
import type { AuditLog } from '@agentry/db';
import { assertAdmin } from '../common/access.js';
import { decodeIdCursor } from '@agentry/contracts/v1';
import { toIdPage } from '../common/page-cursor.js';
import { AuditLogRepository } from './audit-log.repository.js';
import { WebhookEventsPublisher } from '../webhook-events/webhook-events.publisher.js';

export interface AuditRecord {
  /** What happened, as a verb: create, update, archive, revoke, ... */
  action: string;
  resourceType: string;
  resourceId?: string | null;
  details?: Record<string, unknown>;
}

/**
 * Who changed what, when. Every mutating control service calls `record` after its change succeeds;
 * a failure to write the entry is logged but never undoes or fails the change itself. A change webhook
 * endpoints may subscribe to (`agent.created`, `session.archived`…) goes on to the webhook fan-out from here.
 */
@Injectable()
export class AuditLogService {
  constructor(
    private readonly entries: AuditLogRepository,
    private readonly webhookEvents: WebhookEventsPublisher,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async record(actor: Actor, record: AuditRecord): Promise<void> {
    try {
      await this.entries.insert({
        id: newId('audit_'),
        tenantId: actor.tenantId,
        namespaceId: actor.namespaceId,
        actorType: actor.apiKeyId ? 'api_key' : actor.userId ? 'user' : 'system',
        actorId: actor.apiKeyId ?? actor.userId,
        action: record.action,
        resourceType: record.resourceType,
        resourceId: record.resourceId ?? null,
        details: (record.details ?? {}) as object,
      });
    } catch (error) {
      this.logger.error({ err: error, ...record }, 'could not write audit log entry');
    }
    await this.webhookEvents.changed(actor, record);
  }

  async list(actor: Actor, query: AuditListQuery): Promise<Page<AuditEntry>> {
    assertAdmin(actor);
    const rows = await this.entries.list(actor.tenantId, {
      limit: query.limit + 1,
      beforeId: decodeIdCursor(query.page),
      ...(query.resourceType ? { resourceType: query.resourceType } : {}),
      ...(query.resourceId ? { resourceId: query.resourceId } : {}),
    });
    return toIdPage(rows, query.limit, toAuditEntry);
  }
}

function toAuditEntry(row: AuditLog): AuditEntry {
  return {
    id: row.id,
    actorType: row.actorType,
    actorId: row.actorId,
    namespaceId: row.namespaceId,
    action: row.action,
    resourceType: row.resourceType,
    resourceId: row.resourceId,
    details: row.details as Record<string, unknown>,
    createdAt: row.createdAt.toISOString(),
  };
}
