import { Inject, Injectable } from '@nestjs/common';
import { EgressGuard, guarded } from '@agentry/harness';
import { CLOCK, type Clock } from '@agentry/platform';
import { Webhook } from 'standardwebhooks';
import { SCHEDULER_CONFIG, type SchedulerEnv } from '../config/env.js';
import type { AttemptResult } from './webhook-deliveries.repository.js';

export interface SignedMessage {
  /** The event id: the `webhook-id` header, the same on every attempt so receivers can dedupe. */
  id: string;
  body: string;
  /** The current secret first, then a rotated-out one still in its grace period. */
  secrets: string[];
}

/**
 * One HTTP attempt of a delivery, signed per Standard Webhooks: `webhook-id`, `webhook-timestamp` and a
 * `webhook-signature` with one `v1,…` signature per live secret, so a receiver still holding the previous
 * secret verifies during a rotation's grace period. The target passes the egress guard on every attempt,
 * at the address actually dialled; redirects are not followed.
 */
@Injectable()
export class WebhookSender {
  private readonly guard: EgressGuard;

  constructor(
    @Inject(SCHEDULER_CONFIG) private readonly config: SchedulerEnv,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.guard = new EgressGuard({
      allowPrivateNetworks: config.AGENTRY_WEBHOOK_ALLOW_PRIVATE_NETWORKS,
      allowedHosts: config.AGENTRY_WEBHOOK_ALLOWED_HOSTS,
    });
  }

  async send(url: string, message: SignedMessage): Promise<AttemptResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const target = new URL(url);
    const refusal = await this.guard.refusal(target);
    if (refusal) return { statusCode: null, latencyMs: elapsed(), error: refusal };
    const timestamp = this.clock.now();
    const signature = message.secrets
      .map((secret) => new Webhook(secret).sign(message.id, timestamp, message.body))
      .join(' ');
    // A host the installation named is dialled as it resolves; any other only at an address the guard admits.
    const dial = (init: RequestInit) => (this.guard.allowsHost(target) ? init : guarded(this.guard, init));
    try {
      const response = await fetch(
        url,
        dial({
          method: 'POST',
          redirect: 'manual',
          headers: {
            'content-type': 'application/json',
            'user-agent': 'Agentry-Webhooks/1',
            'webhook-id': message.id,
            'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
            'webhook-signature': signature,
          },
          body: message.body,
          signal: AbortSignal.timeout(this.config.AGENTRY_WEBHOOK_TIMEOUT_MS),
        }),
      );
      // The body is not used; reading it frees the connection.
      await response.arrayBuffer().catch(() => undefined);
      const ok = response.status >= 200 && response.status < 300;
      return {
        statusCode: response.status,
        latencyMs: elapsed(),
        error: ok ? null : `The receiver answered ${response.status}`,
      };
    } catch (error) {
      return { statusCode: null, latencyMs: elapsed(), error: describe(error) };
    }
  }
}

function describe(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'The receiver did not answer in time';
  const cause = error instanceof Error ? (error.cause as Error | undefined) : undefined;
  return cause?.message ?? (error instanceof Error ? error.message : String(error));
}
