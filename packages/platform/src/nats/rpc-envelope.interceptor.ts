import { Inject, Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { AppError } from '@agentry/contracts';
import { catchError, map, of, type Observable } from 'rxjs';
import { isDatabaseUnavailable } from '@agentry/db';
import { toErrorBody, type RpcEnvelope } from './rpc-envelope.js';
import type { Logger } from '../logging/logger.js';
import { LOGGER } from '../tokens.js';

/** Wraps every NATS handler reply in the envelope; expected errors log at warn, others at error. */
@Injectable()
export class RpcEnvelopeInterceptor implements NestInterceptor {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<RpcEnvelope<unknown>> {
    const subject = context.switchToRpc().getContext<{ getSubject?: () => string }>()?.getSubject?.();
    return next.handle().pipe(
      map((data: unknown) => ({ ok: true as const, data: data === undefined ? null : data })),
      catchError((error: unknown) => {
        if (error instanceof AppError) {
          this.logger.warn({ subject, code: error.code, err: error.message }, 'rpc request failed');
        } else if (isDatabaseUnavailable(error)) {
          this.logger.warn({ subject, err: (error as Error).message }, 'rpc request failed: database unavailable');
        } else {
          this.logger.error({ subject, err: error }, 'rpc handler crashed');
        }
        return of({ ok: false as const, error: toErrorBody(error) });
      }),
    );
  }
}
