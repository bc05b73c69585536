import { Controller } from '@nestjs/common';
import {
  ControlSubjects as S,
  WebhookDeliverySupportSubjects as Support,
  type RpcParsedRequest,
} from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { CatalogHandlers } from '../common/catalog-handlers.decorator.js';
import { WebhookHealthService } from './webhook-health.service.js';
import { WebhooksService } from './webhooks.service.js';

@Controller()
@CatalogHandlers('webhooks', {
  create: S.createWebhook,
  get: S.getWebhook,
  update: S.updateWebhook,
  list: S.listWebhooks,
  delete: S.deleteWebhook,
})
export class WebhooksHandler {
  constructor(
    readonly webhooks: WebhooksService,
    private readonly health: WebhookHealthService,
  ) {}

  @RpcHandler(S.regenerateWebhookSecret)
  regenerateSecret(req: RpcParsedRequest<typeof S.regenerateWebhookSecret>) {
    return this.webhooks.regenerateSecret(req.actor, req.id, req.body);
  }

  @RpcHandler(Support.signingSecrets)
  signingSecrets(req: RpcParsedRequest<typeof Support.signingSecrets>) {
    return this.health.signingSecrets(req.tenantId, req.webhookId);
  }

  @RpcHandler(Support.recordOutcome)
  recordOutcome(req: RpcParsedRequest<typeof Support.recordOutcome>) {
    return this.health.recordOutcome(req.tenantId, req.webhookId, req.outcome);
  }
}
