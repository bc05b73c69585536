import { createHash } from 'node:crypto';
import type { Actor, WorkPrincipal } from '@agentry/contracts';

/** What a request is counted against: the API key, the user, the worker's environment, or else the client IP. */
export type PrincipalKind = 'api_key' | 'user' | 'environment' | 'ip' | 'deployment_webhook';

export interface Principal {
  kind: PrincipalKind;
  key: string;
}

export interface IdentifiedRequest {
  actor?: Actor;
  workPrincipal?: WorkPrincipal;
  ip?: string;
}

export function principalOf(request: IdentifiedRequest): Principal {
  if (request.workPrincipal)
    return { kind: 'environment', key: `env:${request.workPrincipal.environmentId}` };
  if (request.actor?.apiKeyId) return { kind: 'api_key', key: `key:${request.actor.apiKeyId}` };
  if (request.actor?.userId) return { kind: 'user', key: `user:${request.actor.userId}` };
  return { kind: 'ip', key: `ip:${request.ip ?? 'unknown'}` };
}

/** The public route that fires a deployment by its webhook token. */
const DEPLOYMENT_WEBHOOK_PATH = /^\/api\/deployments\/webhook\/([^/]+)$/;

/**
 * A deployment webhook call is counted against its token too, so one noisy sender cannot start runs without
 * end; the token is hashed, never kept in Redis as it is. Null for any other path.
 */
export function deploymentWebhookOf(path: string): Principal | null {
  const token = DEPLOYMENT_WEBHOOK_PATH.exec(path)?.[1];
  if (!token) return null;
  return { kind: 'deployment_webhook', key: `dwh:${createHash('sha256').update(token).digest('hex')}` };
}
