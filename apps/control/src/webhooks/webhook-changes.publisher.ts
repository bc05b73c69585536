import { Injectable } from '@nestjs/common';
import { PubSubjects } from '@agentry/contracts';
import { NatsBus } from '@agentry/platform';

/**
 * Tells the dataplanes an endpoint was created or changed, so none goes on skipping the webhook events of
 * a namespace it had seen without endpoints. Sent before the change is answered (on the connection the
 * answer takes), so the events that follow the answer find the endpoint.
 */
@Injectable()
export class WebhookChangesPublisher {
  constructor(private readonly bus: NatsBus) {}

  changed(): void {
    this.bus.publish(PubSubjects.webhooksChanged, {});
  }
}
