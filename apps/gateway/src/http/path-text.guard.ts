import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { AppError } from '@agentry/contracts';
import { textProblem } from './text-guard.js';

/**
 * Refuses a path parameter Postgres cannot hold as text (a NUL, an unpaired surrogate) with a typed 400
 * naming it, as bodies and queries already are; otherwise the id would fail deep in storage as a 500.
 */
@Injectable()
export class PathTextGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const params = context.switchToHttp().getRequest<{ params?: Record<string, unknown> }>().params ?? {};
    for (const [name, value] of Object.entries(params)) {
      const problem = typeof value === 'string' ? textProblem(value) : undefined;
      if (problem) throw new AppError('INVALID_REQUEST', `path parameter ${name} ${problem}`);
    }
    return true;
  }
}
