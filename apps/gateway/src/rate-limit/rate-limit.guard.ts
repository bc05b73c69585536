import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { deploymentWebhookOf, principalOf, type IdentifiedRequest } from './principal-key.js';
import { RequestRateLimiter } from './request-rate-limiter.js';

/** Probes stay outside the limits: an orchestrator polling them must never see 429. */
const UNLIMITED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Runs after the actor guard, so a request counts against who it authenticated as (API key, user,
 * worker environment); public routes such as login count against the client address.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(private readonly limiter: RequestRateLimiter) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<IdentifiedRequest & { url?: string }>();
    const path = (request.url ?? '').split('?')[0] ?? '';
    if (UNLIMITED_PATHS.has(path)) return true;
    await this.limiter.consume(principalOf(request));
    const webhook = deploymentWebhookOf(path);
    if (webhook) await this.limiter.consume(webhook);
    return true;
  }
}
