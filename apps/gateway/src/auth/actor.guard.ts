import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppError } from '@agentry/contracts';
import { addToContext, IS_PUBLIC } from '@agentry/platform';
import { ActorResolver } from './actor-resolver.service.js';
import { UserTokens, type TokenActor } from './user-tokens.js';
import type { RequestWithActor } from './current-actor.decorator.js';
import { workerCredentialOf } from '../workers/worker-credential.js';
import { WorkerCredentialResolver, type WorkerRequest } from '../workers/worker-credential.resolver.js';
import { WORKER_ROUTE, type WorkerRoutePolicy } from '../workers/worker-route.decorator.js';

type HttpRequest = RequestWithActor & { headers: Record<string, string | string[] | undefined> };

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** Picks one of the caller's namespaces; without it, a user works in the tenant's first namespace. */
const NAMESPACE_HEADER = 'x-agentry-namespace';

/**
 * Resolves the caller: a user token (JWT, checked by `UserTokens`) or an API key (`x-api-key` or
 * `Authorization: Bearer`). What control says they act as is cached briefly and dropped on every
 * access change, so revoked keys, disabled users and role changes take effect on the very next call.
 * Environment keys and work items' sessions tokens are admitted only where a route's worker policy
 * takes them (`workers/`).
 */
@Injectable()
export class ActorGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly actors: ActorResolver,
    private readonly workers: WorkerCredentialResolver,
    private readonly tokens: UserTokens,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) return true;
    const request = context.switchToHttp().getRequest<HttpRequest & WorkerRequest>();
    // Environment keys and sessions tokens are never API keys: only routes that declare them take them.
    const workerPolicy =
      this.reflector.getAllAndOverride<WorkerRoutePolicy | undefined>(WORKER_ROUTE, [
        context.getHandler(),
        context.getClass(),
      ]) ?? null;
    const workerCredential = workerCredentialOf(request.headers);
    if (workerCredential) {
      await this.workers.admitWorker(request, workerCredential, workerPolicy);
      addToContext({ tenantId: request.workPrincipal?.tenantId ?? request.actor?.tenantId });
      return true;
    }
    // Presented credentials are checked before a worker-only route refuses users, so a forged token or a
    // revoked key is 401 there as everywhere; only a valid user or API key hears 403.
    if (workerPolicy && credentialOf(request) === null) this.workers.assertUsersAccepted(workerPolicy, false);
    await this.authenticateActor(request);
    if (workerPolicy) this.workers.assertUsersAccepted(workerPolicy, true);
    if (workerPolicy) await this.workers.scopeActor(request, workerPolicy);
    // From here on the request's log lines name the tenant.
    addToContext({ tenantId: request.actor?.tenantId });
    return true;
  }

  /** A user token or an API key → `request.actor`. */
  private async authenticateActor(request: HttpRequest): Promise<void> {
    const credential = credentialOf(request);
    if (!credential) {
      throw new AppError(
        'UNAUTHENTICATED',
        'Missing credentials: send an x-api-key header or Authorization: Bearer <token>',
      );
    }
    const namespaceId = namespaceOf(request);
    if (credential.kind === 'bearer' && JWT_SHAPE.test(credential.value)) {
      const token: TokenActor = this.tokens.verify(credential.value);
      request.user = token;
      request.actor = await this.actors.user(token.userId, namespaceId, token.tokenId);
      return;
    }
    const actor = await this.actors.apiKey(credential.value);
    if (namespaceId && namespaceId !== actor.namespaceId) {
      throw new AppError(
        'PERMISSION_DENIED',
        `${NAMESPACE_HEADER}: this API key is bound to namespace ${actor.namespaceId}`,
      );
    }
    request.actor = actor;
  }
}

function credentialOf(request: HttpRequest): { kind: 'api-key' | 'bearer'; value: string } | null {
  const apiKey = request.headers['x-api-key'];
  if (typeof apiKey === 'string' && apiKey.length > 0) return { kind: 'api-key', value: apiKey };
  const authorization = request.headers.authorization;
  if (typeof authorization === 'string') {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (match?.[1]) return { kind: 'bearer', value: match[1] };
  }
  return null;
}

function namespaceOf(request: HttpRequest): string | null {
  const value = request.headers[NAMESPACE_HEADER];
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string' || value.length > 128)
    throw new AppError('INVALID_REQUEST', `${NAMESPACE_HEADER}: send one namespace id`);
  return value;
}
