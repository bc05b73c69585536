import { AppError } from '@agentry/contracts';
import type { WorkerCredentialKind } from './worker-route.decorator.js';

/** AgentScope workers send the environment key in this header. */
const ENVIRONMENT_KEY_HEADER = 'x-builder-environment-key';

// Issued by control (`POST /v1/environments/{id}/keys`) and by the dataplane (in a polled item's secret).
const PREFIXES: Record<WorkerCredentialKind, string> = {
  'environment-key': 'agentry_envkey_',
  'sessions-token': 'agentry_worktok_',
};

export interface WorkerCredential {
  kind: WorkerCredentialKind;
  value: string;
}

type Headers = Record<string, string | string[] | undefined>;

/**
 * The worker credential a request carries, told apart from user tokens and API keys by its prefix:
 * `X-Builder-Environment-Key`, then `x-api-key`, then `Authorization: Bearer`. Null when it carries none.
 */
export function workerCredentialOf(headers: Headers): WorkerCredential | null {
  const builderKey = headers[ENVIRONMENT_KEY_HEADER];
  if (builderKey !== undefined) {
    if (typeof builderKey !== 'string' || !builderKey.startsWith(PREFIXES['environment-key'])) {
      throw new AppError(
        'UNAUTHENTICATED',
        'X-Builder-Environment-Key: not an environment key (they start with agentry_envkey_)',
      );
    }
    return { kind: 'environment-key', value: builderKey };
  }
  for (const value of [headers['x-api-key'], bearerOf(headers.authorization)]) {
    if (typeof value !== 'string') continue;
    const kind = kindOf(value);
    if (kind) return { kind, value };
  }
  return null;
}

function bearerOf(authorization: string | string[] | undefined): string | undefined {
  if (typeof authorization !== 'string') return undefined;
  return /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
}

function kindOf(value: string): WorkerCredentialKind | null {
  if (value.startsWith(PREFIXES['environment-key'])) return 'environment-key';
  if (value.startsWith(PREFIXES['sessions-token'])) return 'sessions-token';
  return null;
}

/** Why a worker credential does not open a route, and what does. */
export function refusalFor(kind: WorkerCredentialKind): string {
  if (kind === 'environment-key') {
    return "An environment key only opens its own environment's worker routes (/v1/environments/{id}/work…, /api/environments/{id}/work… and /api/environments/{id}/sessions/…); use an API key or a user token here";
  }
  return "A work item's sessions token only reaches its own session (GET /v1/sessions/{id}, its events and event stream), the heartbeat and stop of its own work item, and its agent's skills; use an API key or a user token here";
}
