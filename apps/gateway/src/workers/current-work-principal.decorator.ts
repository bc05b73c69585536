import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { AppError, type WorkPrincipal } from '@agentry/contracts';
import type { WorkerRequest } from './worker-credential.resolver.js';

/** The work-queue principal the guard resolved for a worker route (environment key, sessions token or user). */
export const CurrentWorkPrincipal = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): WorkPrincipal => {
    const principal = ctx.switchToHttp().getRequest<WorkerRequest>().workPrincipal;
    if (!principal) throw new AppError('UNAUTHENTICATED', 'This route needs an environment key');
    return principal;
  },
);
