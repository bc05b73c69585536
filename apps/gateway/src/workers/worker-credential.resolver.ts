import { Injectable } from '@nestjs/common';
import {
  AppError,
  ControlSubjects,
  WorkSubjects,
  WorkerAuthSubjects,
  type Actor,
  type WorkPrincipal,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { refusalFor, type WorkerCredential } from './worker-credential.js';
import { acceptsUsers, acceptsWorkerCredential, type WorkerRoutePolicy } from './worker-route.decorator.js';
import { workerActor } from './worker-actor.js';

/** What the guard fills in on the request for the handlers. */
export interface WorkerRequest {
  params?: Record<string, string | undefined>;
  actor?: Actor;
  workPrincipal?: WorkPrincipal;
}

/**
 * Admits worker credentials where a route's policy takes them, and only for what the path names:
 * an environment key for its own environment, a sessions token for its own item and session.
 * Users and API keys on work-queue routes get a principal too, once the environment is theirs.
 */
@Injectable()
export class WorkerCredentialResolver {
  constructor(private readonly rpc: RpcClient) {}

  async admitWorker(
    request: WorkerRequest,
    credential: WorkerCredential,
    policy: WorkerRoutePolicy | null,
  ): Promise<void> {
    if (!policy || !acceptsWorkerCredential(policy, credential.kind))
      throw new AppError('UNAUTHENTICATED', refusalFor(credential.kind));
    const principal =
      credential.kind === 'environment-key'
        ? await this.rpc.request(WorkerAuthSubjects.verifyEnvironmentKey, { key: credential.value })
        : await this.rpc.request(WorkSubjects.verifySessionsToken, { token: credential.value });
    const actor = workerActor(principal);
    await this.checkScope(
      param(request, policy),
      principal,
      actor,
      policy,
      credential.kind === 'sessions-token',
    );
    request.workPrincipal = principal;
    request.actor = actor;
  }

  /** Before a user token or API key is checked: routes only workers may call refuse it outright. */
  assertUsersAccepted(policy: WorkerRoutePolicy, credentialPresented: boolean): void {
    if (acceptsUsers(policy)) return;
    const hint =
      "send the environment's key (Authorization: Bearer agentry_envkey_…, or X-Builder-Environment-Key)";
    if (!credentialPresented) throw new AppError('UNAUTHENTICATED', `Missing credentials: ${hint}`);
    throw new AppError(
      'PERMISSION_DENIED',
      `This route is for the environment's worker, not for users or API keys: ${hint}`,
    );
  }

  /** After the guard resolved a user or API key: on a work-queue route, the environment must be theirs. */
  async scopeActor(request: WorkerRequest, policy: WorkerRoutePolicy): Promise<void> {
    if (policy.kind !== 'work-queue' || !request.actor) return;
    const environmentId = param(request, policy)(policy.environmentParam);
    const environment = await this.rpc.request(ControlSubjects.getEnvironment, {
      actor: request.actor,
      id: environmentId,
    });
    const { tenantId, namespaceId } = request.actor;
    request.workPrincipal = {
      tenantId,
      namespaceId,
      environmentId: environment.id,
      workId: null,
      sessionId: null,
    };
  }

  private async checkScope(
    params: (name: string) => string,
    principal: WorkPrincipal,
    actor: Actor,
    policy: WorkerRoutePolicy,
    isSessionsToken: boolean,
  ): Promise<void> {
    switch (policy.kind) {
      case 'work-queue':
        assertSameEnvironment(principal, params(policy.environmentParam), isSessionsToken);
        if (isSessionsToken && policy.workParam && params(policy.workParam) !== principal.workId) {
          throw new AppError('NOT_FOUND', `Work item ${params(policy.workParam)} not found`);
        }
        return;
      case 'environment-session': {
        const environmentId = params(policy.environmentParam);
        assertSameEnvironment(principal, environmentId, false);
        const session = await this.rpc.request(ControlSubjects.getSession, {
          actor,
          id: params(policy.sessionParam),
        });
        if (session.environment_id !== environmentId) {
          throw new AppError(
            'PERMISSION_DENIED',
            `Session ${session.id} runs in environment ${session.environment_id}, not ${environmentId}`,
          );
        }
        return;
      }
      case 'session':
        if (params(policy.sessionParam) !== principal.sessionId)
          throw new AppError('NOT_FOUND', `Session ${params(policy.sessionParam)} not found`);
        return;
      case 'session-skill': {
        const skillId = params(policy.skillParam);
        const session = principal.sessionId
          ? await this.rpc.request(ControlSubjects.getSession, { actor, id: principal.sessionId })
          : null;
        if (!session?.agent.skills.some((skill) => skill.skill_id === skillId))
          throw new AppError('NOT_FOUND', `Skill ${skillId} not found`);
        return;
      }
    }
  }
}

function param(request: WorkerRequest, policy: WorkerRoutePolicy): (name: string) => string {
  return (name) => {
    const value = request.params?.[name];
    if (!value)
      throw new AppError('INTERNAL', `Route policy ${policy.kind} names a missing path parameter ${name}`);
    return value;
  };
}

function assertSameEnvironment(
  principal: WorkPrincipal,
  environmentId: string,
  isSessionsToken: boolean,
): void {
  if (principal.environmentId === environmentId) return;
  const credential = isSessionsToken ? 'sessions token' : 'environment key';
  throw new AppError(
    'PERMISSION_DENIED',
    `This ${credential} belongs to environment ${principal.environmentId}, not ${environmentId}`,
  );
}
