import type { RouteAuth } from '../docs/route-entry.js';

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

/** Which credentials an operation lists, from who its route table entry says may call it. */
export function securityOf(auth: RouteAuth): SecurityRequirement[] {
  const user: SecurityRequirement[] = [{ bearer: [] }, { apiKey: [] }];
  const environmentKey: SecurityRequirement[] = [{ environmentKey: [] }, { builderEnvironmentKey: [] }];
  const sessionsToken: SecurityRequirement[] = [{ sessionsToken: [] }];
  switch (auth) {
    case 'public':
      return [];
    case 'user':
      return user;
    case 'environment-key':
      return environmentKey;
    case 'user-or-environment-key':
      return [...user, ...environmentKey];
    case 'work-item':
      return [...environmentKey, ...sessionsToken];
    case 'user-or-sessions-token':
      return [...user, ...sessionsToken];
  }
}
