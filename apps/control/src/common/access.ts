import { AppError, type Actor } from '@agentry/contracts';

/** Viewers read; members and admins write. */
export function assertCanWrite(actor: Actor): void {
  if (actor.role === 'viewer') throw new AppError('PERMISSION_DENIED', 'This key or user may only read');
}
