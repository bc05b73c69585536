import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '@agentry/contracts';
import { EgressGuard } from '@agentry/harness';
import { CONTROL_CONFIG } from '../config/control-config.token.js';
import type { ControlEnv } from '../config/env.js';

/**
 * Where a webhook endpoint may point: the egress guard's rule for server-side fetches, so an endpoint on
 * loopback, a private network or a metadata address is refused unless the installation allows it (all of
 * them, or a named host). The
 * scheduler checks again at every delivery, since a name may resolve elsewhere later.
 */
@Injectable()
export class WebhookUrlPolicy {
  private readonly guard: EgressGuard;

  constructor(
    @Inject(CONTROL_CONFIG)
    config: Pick<ControlEnv, 'AGENTRY_WEBHOOK_ALLOW_PRIVATE_NETWORKS' | 'AGENTRY_WEBHOOK_ALLOWED_HOSTS'>,
  ) {
    this.guard = new EgressGuard({
      allowPrivateNetworks: config.AGENTRY_WEBHOOK_ALLOW_PRIVATE_NETWORKS,
      allowedHosts: config.AGENTRY_WEBHOOK_ALLOWED_HOSTS,
    });
  }

  async check(url: string): Promise<void> {
    const refusal = await this.guard.refusal(new URL(url));
    if (refusal) throw new AppError('INVALID_REQUEST', `url: ${refusal}`);
  }
}
