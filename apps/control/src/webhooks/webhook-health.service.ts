import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '@agentry/contracts';
import { CLOCK, LOGGER, type Clock, type Logger } from '@agentry/platform';
import { CONTROL_CONFIG } from '../config/control-config.token.js';
import type { ControlEnv } from '../config/env.js';
import { AuditLogService } from '../audit/audit-log.service.js';
import { WebhookSecrets } from './webhook-secrets.js';
import { WebhooksRepository } from './webhooks.repository.js';

/**
 * What the scheduler needs from control while it delivers: the secrets to sign with, and a place to report
 * how deliveries end, so an endpoint that keeps failing is disabled (with a `webhook.disabled` audit entry).
 */
@Injectable()
export class WebhookHealthService {
  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly secrets: WebhookSecrets,
    private readonly audit: AuditLogService,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CONTROL_CONFIG) private readonly config: ControlEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async signingSecrets(tenantId: string, webhookId: string): Promise<{ secrets: string[] }> {
    const row = await this.webhooks.findInTenant(tenantId, webhookId);
    if (!row) throw new AppError('NOT_FOUND', `Webhook endpoint ${webhookId} not found`);
    return { secrets: this.secrets.signing(row, this.clock.now()) };
  }

  async recordOutcome(
    tenantId: string,
    webhookId: string,
    outcome: 'succeeded' | 'failed',
  ): Promise<{ disabled: boolean }> {
    const row = await this.webhooks.findInTenant(tenantId, webhookId);
    if (!row) return { disabled: false };
    if (outcome === 'succeeded') {
      if (row.consecutiveFailures > 0)
        await this.webhooks.update(tenantId, webhookId, { consecutiveFailures: 0 });
      return { disabled: false };
    }
    const failures = await this.webhooks.countFailure(tenantId, webhookId);
    const limit = this.config.AGENTRY_WEBHOOK_DISABLE_AFTER_FAILURES;
    if (failures < limit) return { disabled: false };
    const reason = `Disabled after ${failures} deliveries in a row failed every attempt`;
    if (!(await this.webhooks.disable(tenantId, webhookId, reason))) return { disabled: false };
    this.logger.warn({ tenantId, webhookId, failures }, 'webhook endpoint disabled after failed deliveries');
    const system = {
      tenantId,
      namespaceId: row.namespaceId ?? '',
      userId: null,
      apiKeyId: null,
      role: 'admin' as const,
    };
    await this.audit.record(system, {
      action: 'disable',
      resourceType: 'webhook',
      resourceId: webhookId,
      details: { reason, failures },
    });
    return { disabled: true };
  }
}
