import { Global, Module } from '@nestjs/common';
import { WebhookEventsPublisher } from './webhook-events.publisher.js';

/** Global, like the audit log it follows: every recorded change may be a webhook event. */
@Global()
@Module({ providers: [WebhookEventsPublisher], exports: [WebhookEventsPublisher] })
export class WebhookEventsModule {}
