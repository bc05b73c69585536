import { acceptsUsers, acceptsWorkerCredential, type WorkerRoutePolicy } from './worker-route.decorator.js';

type SecurityRequirement = Record<string, string[]>;

/** OpenAPI security schemes of the worker credentials, beside the user token and API key. */
export const WORKER_SECURITY_SCHEMES = {
  environmentKey: {
    type: 'http',
    scheme: 'bearer',
    description:
      "An environment key (agentry_envkey_…) from POST /v1/environments/{id}/keys; opens that environment's work queue only",
  },
  builderEnvironmentKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Builder-Environment-Key',
    description: 'The environment key, as AgentScope workers send it',
  },
  sessionsToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      "A polled work item's sessions token (agentry_worktok_…, inside its secret); reaches only that item and its session",
  },
} as const;

/** Which credentials a route's OpenAPI operation lists, from its worker-route policy. */
export function securityOf(policy: WorkerRoutePolicy | null): SecurityRequirement[] {
  const requirements: SecurityRequirement[] = [];
  if (acceptsUsers(policy)) requirements.push({ bearer: [] }, { apiKey: [] });
  if (acceptsWorkerCredential(policy, 'environment-key'))
    requirements.push({ environmentKey: [] }, { builderEnvironmentKey: [] });
  if (acceptsWorkerCredential(policy, 'sessions-token')) requirements.push({ sessionsToken: [] });
  return requirements;
}
