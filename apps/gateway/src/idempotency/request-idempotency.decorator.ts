import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { AppendIdempotency } from '@agentry/contracts';

export type RequestWithIdempotency = { idempotency?: AppendIdempotency };

/**
 * The request's `Idempotency-Key` as hashes (set by `IdempotencyInterceptor`), for handlers that pass it
 * on so the service holding the data can honour it too; undefined without a key.
 */
export const RequestIdempotency = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): AppendIdempotency | undefined =>
    ctx.switchToHttp().getRequest<RequestWithIdempotency>().idempotency,
);
