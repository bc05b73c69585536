import { Module } from '@nestjs/common';
import { SessionsModule } from '../sessions/sessions.module.js';
import { VaultsModule } from '../vaults/vaults.module.js';
import { WebhookChangesPublisher } from './webhook-changes.publisher.js';
import { WebhookHealthService } from './webhook-health.service.js';
import { WebhookSecrets } from './webhook-secrets.js';
import { WebhookUrlPolicy } from './webhook-url.policy.js';
import { WebhooksHandler } from './webhooks.handler.js';
import { WebhooksRepository } from './webhooks.repository.js';
import { WebhooksService } from './webhooks.service.js';

@Module({
  imports: [SessionsModule, VaultsModule],
  controllers: [WebhooksHandler],
  providers: [
    WebhooksRepository,
    WebhooksService,
    WebhookChangesPublisher,
    WebhookHealthService,
    WebhookSecrets,
    WebhookUrlPolicy,
  ],
})
export class WebhooksModule {}
