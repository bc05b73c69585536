import { Injectable } from '@nestjs/common';
import { PubSubjects, type AccessChanged } from '@agentry/contracts';
import { NatsBus } from '@agentry/platform';

/**
 * Tells every gateway that someone's access may have narrowed, so it drops the actors it cached for
 * them. Published after the change is committed and before the request is answered, so the other
 * replicas hear it about as soon as the caller does; the gateway's short cache TTL covers a lost message.
 */
@Injectable()
export class AccessChangesPublisher {
  constructor(private readonly bus: NatsBus) {}

  changed(change: Omit<AccessChanged, 'v'>): void {
    this.bus.publish(PubSubjects.accessChanged, { v: 1, ...change } satisfies AccessChanged);
  }
}
