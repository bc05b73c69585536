import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  ID_PREFIXES,
  newId,
  type Actor,
  type CreateWebhookEndpointRequest,
  type ListParams,
  type NewWebhookEndpoint,
  type Page,
  type RegenerateSigningSecretRequest,
  type UpdateWebhookEndpointRequest,
  type WebhookEndpoint,
  type WebhookEndpointDeleted,
  type WebhookSigningSecret,
} from '@agentry/contracts';
import { decodeIdCursor } from '@agentry/contracts/v1';
import type { Prisma, Webhook } from '@agentry/db';
import { CLOCK, type Clock } from '@agentry/platform';
import { assertCanWrite } from '../common/access.js';
import { toIdPage } from '../common/page-cursor.js';
import { AuditLogService } from '../audit/audit-log.service.js';
import { SessionsService } from '../sessions/sessions.service.js';
import { CONTROL_CONFIG } from '../config/control-config.token.js';
import type { ControlEnv } from '../config/env.js';
import { toWebhookEndpointDto } from './webhook.mapper.js';
import { WebhookChangesPublisher } from './webhook-changes.publisher.js';
import { WebhookSecrets } from './webhook-secrets.js';
import { WebhookUrlPolicy } from './webhook-url.policy.js';
import { WebhooksRepository } from './webhooks.repository.js';

/** Webhook endpoints: where deliveries go, which events they get, and the secret that signs them. */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly secrets: WebhookSecrets,
    private readonly urls: WebhookUrlPolicy,
    private readonly sessions: SessionsService,
    private readonly audit: AuditLogService,
    private readonly changes: WebhookChangesPublisher,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CONTROL_CONFIG) private readonly config: ControlEnv,
  ) {}

  async create(actor: Actor, body: CreateWebhookEndpointRequest): Promise<NewWebhookEndpoint> {
    assertCanWrite(actor);
    await this.urls.check(body.url);
    // A per-session endpoint names a session of this namespace; anyone else's is simply not found.
    if (body.session_id) await this.sessions.get(actor, body.session_id);
    const id = newId(ID_PREFIXES.webhook);
    const secret = this.secrets.generate();
    const row = await this.webhooks.create({
      id,
      tenantId: actor.tenantId,
      namespaceId: actor.namespaceId,
      url: body.url,
      name: body.name ?? '',
      description: body.description ?? '',
      eventTypes: [...new Set(body.enabled_events)],
      sessionId: body.session_id ?? null,
      ...this.secrets.seal(secret, id),
    });
    await this.audit.record(actor, { action: 'create', resourceType: 'webhook', resourceId: id });
    this.changes.changed();
    return { ...toWebhookEndpointDto(row), signing_secret: secret };
  }

  async get(actor: Actor, id: string): Promise<WebhookEndpoint> {
    return toWebhookEndpointDto(await this.require(actor, id));
  }

  async list(actor: Actor, query: ListParams): Promise<Page<WebhookEndpoint>> {
    const rows = await this.webhooks.list(actor, {
      limit: query.limit + 1,
      afterId: decodeIdCursor(query.page),
      order: query.order ?? 'desc',
    });
    return toIdPage(rows, query.limit, toWebhookEndpointDto);
  }

  async update(actor: Actor, id: string, body: UpdateWebhookEndpointRequest): Promise<WebhookEndpoint> {
    assertCanWrite(actor);
    await this.require(actor, id);
    if (body.url) await this.urls.check(body.url);
    const data: Prisma.WebhookUncheckedUpdateInput = {
      ...(body.url ? { url: body.url } : {}),
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      // An empty list leaves the subscriptions as they are, as CMA's update does.
      ...(body.enabled_events?.length ? { eventTypes: [...new Set(body.enabled_events)] } : {}),
      ...(body.state === 'enabled' ? { enabled: true, disabledReason: '', consecutiveFailures: 0 } : {}),
      ...(body.state === 'disabled' ? { enabled: false, disabledReason: '' } : {}),
    };
    const row = await this.webhooks.update(actor.tenantId, id, data);
    await this.audit.record(actor, { action: 'update', resourceType: 'webhook', resourceId: id });
    this.changes.changed();
    return toWebhookEndpointDto(row);
  }

  async delete(actor: Actor, id: string): Promise<WebhookEndpointDeleted> {
    assertCanWrite(actor);
    await this.require(actor, id);
    await this.webhooks.delete(actor, id);
    await this.audit.record(actor, { action: 'delete', resourceType: 'webhook', resourceId: id });
    return { id, type: 'webhook_endpoint_deleted' };
  }

  /** A new secret; the old one keeps signing (a second signature) until the grace period ends. */
  async regenerateSecret(
    actor: Actor,
    id: string,
    body: RegenerateSigningSecretRequest,
  ): Promise<WebhookSigningSecret> {
    assertCanWrite(actor);
    const row = await this.require(actor, id);
    const graceSeconds = body.grace_period_seconds ?? this.config.AGENTRY_WEBHOOK_SECRET_GRACE_SECONDS;
    const expiresAt = graceSeconds > 0 ? new Date(this.clock.nowMs() + graceSeconds * 1000) : null;
    const secret = this.secrets.generate();
    await this.webhooks.update(actor.tenantId, id, {
      ...this.secrets.seal(secret, id),
      previousSecretCiphertext: expiresAt ? row.secretCiphertext : null,
      previousSecretIv: expiresAt ? row.secretIv : null,
      previousSecretTag: expiresAt ? row.secretTag : null,
      previousSecretExpiresAt: expiresAt,
    });
    await this.audit.record(actor, { action: 'rotate_secret', resourceType: 'webhook', resourceId: id });
    return { signing_secret: secret, previous_secret_expires_at: expiresAt?.toISOString() ?? null };
  }

  private async require(actor: Actor, id: string): Promise<Webhook> {
    const row = await this.webhooks.find(actor, id);
    if (!row) throw new AppError('NOT_FOUND', `Webhook endpoint ${id} not found`);
    return row;
  }
}
