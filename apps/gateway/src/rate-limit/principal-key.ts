import type { Actor, WorkPrincipal } from '@agentry/contracts';

/** What a request is counted against: the API key, the user, the worker's environment, or else the client IP. */
export type PrincipalKind = 'api_key' | 'user' | 'environment' | 'ip';

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
