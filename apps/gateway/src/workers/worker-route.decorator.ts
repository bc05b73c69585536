import { SetMetadata } from '@nestjs/common';

export const WORKER_ROUTE = 'agentry:worker-route';

/**
 * Which worker credentials a route takes, and what they must match in its path. A route without
 * this metadata takes users and API keys only; environment keys and sessions tokens are refused there.
 */
export type WorkerRoutePolicy =
  /** An environment's work queue: its key always; users/API keys and an item's own sessions token when allowed. */
  | {
      kind: 'work-queue';
      environmentParam: string;
      workParam: string | null;
      users: boolean;
      sessionsToken: boolean;
    }
  /** A session of the environment, seen by the environment's worker (`/api/environments/{id}/sessions/{sid}/…`). */
  | { kind: 'environment-session'; environmentParam: string; sessionParam: string }
  /** A session route: users/API keys, and the sessions token of that very session. */
  | { kind: 'session'; sessionParam: string }
  /** A skill route: users/API keys, and a sessions token whose session's agent uses the skill. */
  | { kind: 'session-skill'; skillParam: string };

const ENVIRONMENT_PARAM = 'id';
const WORK_PARAM = 'workId';

/**
 * A route of `/…/environments/{id}/work…`. `users` admits users and API keys of the environment's
 * namespace; `sessionsToken` admits the sessions token of the item named by `{workId}`.
 */
export const WorkQueueRoute = (options: { users?: boolean; sessionsToken?: boolean } = {}): MethodDecorator =>
  SetMetadata(WORKER_ROUTE, {
    kind: 'work-queue',
    environmentParam: ENVIRONMENT_PARAM,
    workParam: options.sessionsToken ? WORK_PARAM : null,
    users: options.users ?? false,
    sessionsToken: options.sessionsToken ?? false,
  } satisfies WorkerRoutePolicy);

/** `/api/environments/{id}/sessions/{sessionId}/…`: the environment's key; the session must run there. */
export const EnvironmentSessionRoute = (): MethodDecorator =>
  SetMetadata(WORKER_ROUTE, {
    kind: 'environment-session',
    environmentParam: ENVIRONMENT_PARAM,
    sessionParam: 'sessionId',
  } satisfies WorkerRoutePolicy);

/** A session route the SDK worker calls with its item's sessions token (`{id}` is the session). */
export const SessionsTokenRoute = (): MethodDecorator =>
  SetMetadata(WORKER_ROUTE, { kind: 'session', sessionParam: 'id' } satisfies WorkerRoutePolicy);

/** A skill read the SDK worker makes in `setupSkills` (`{id}` is the skill). */
export const SessionSkillRoute = (): MethodDecorator =>
  SetMetadata(WORKER_ROUTE, { kind: 'session-skill', skillParam: 'id' } satisfies WorkerRoutePolicy);

export type WorkerCredentialKind = 'environment-key' | 'sessions-token';

/** Whether a route's policy takes a kind of worker credential. */
export function acceptsWorkerCredential(
  policy: WorkerRoutePolicy | null,
  kind: WorkerCredentialKind,
): boolean {
  if (!policy) return false;
  switch (policy.kind) {
    case 'work-queue':
      return kind === 'environment-key' || policy.sessionsToken;
    case 'environment-session':
      return kind === 'environment-key';
    case 'session':
    case 'session-skill':
      return kind === 'sessions-token';
  }
}

/** Whether a route's policy takes users and API keys. */
export function acceptsUsers(policy: WorkerRoutePolicy | null): boolean {
  if (!policy) return true;
  if (policy.kind === 'work-queue') return policy.users;
  return policy.kind !== 'environment-session';
}
