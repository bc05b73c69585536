import { AppError, type Actor } from '@agentry/contracts';

/** Viewers read; members and admins write. */
export function assertCanWrite(actor: Actor): void {
  if (actor.role === 'viewer') throw new AppError('PERMISSION_DENIED', 'This key or user may only read');
}

/** Tenant administration needs an admin user; API keys never administer. */
export function assertAdmin(actor: Actor): void {
  if (actor.role !== 'admin' || actor.apiKeyId)
    throw new AppError('PERMISSION_DENIED', 'Only an administrator may do this');
}

/** Operations on one's own account need a signed-in user, not an API key. */
export function requireUser(actor: Actor, what: string): string {
  if (!actor.userId || actor.apiKeyId)
    throw new AppError('PERMISSION_DENIED', `${what} needs a signed-in user, not an API key`);
  return actor.userId;
}
