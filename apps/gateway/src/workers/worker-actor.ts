import type { Actor, WorkPrincipal } from '@agentry/contracts';

/**
 * The actor a worker acts as toward control and the dataplane: its environment's namespace, no user,
 * no API key. It may write (tool results are events) but reaches only the routes its policy admits,
 * and those check the path against the principal first.
 */
export function workerActor(principal: WorkPrincipal): Actor {
  return {
    tenantId: principal.tenantId,
    namespaceId: principal.namespaceId,
    userId: null,
    apiKeyId: null,
    role: 'member',
  };
}
