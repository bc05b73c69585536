import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { AppError, type Actor } from '@agentry/contracts';

export type RequestWithActor = { actor?: Actor; user?: Actor };

/** The caller the guard resolved; every handler passes it on so services scope by tenant and namespace. */
export const CurrentActor = createParamDecorator((_: unknown, ctx: ExecutionContext): Actor => {
  const request = ctx.switchToHttp().getRequest<RequestWithActor>();
  const actor = request.actor ?? request.user;
  if (!actor) throw new AppError('UNAUTHENTICATED', 'Missing credentials');
  return actor;
});
