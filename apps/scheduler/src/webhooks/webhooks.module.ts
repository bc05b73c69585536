import { Module } from '@nestjs/common';
import { WebhookDeliveriesHandler } from './webhook-deliveries.handler.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { WebhookDeliveriesService } from './webhook-deliveries.service.js';
import { WebhookDeliveryProcessor } from './webhook-delivery.processor.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';
import { WebhookFanoutProcessor } from './webhook-fanout.processor.js';
import { WebhookSender } from './webhook-sender.js';

@Module({
  controllers: [WebhookDeliveriesHandler],
  providers: [
    WebhookEndpointsRepository,
    WebhookDeliveriesRepository,
    WebhookDeliveriesService,
    WebhookFanoutProcessor,
    WebhookDeliveryProcessor,
    WebhookSender,
  ],
})
export class WebhooksModule {}
