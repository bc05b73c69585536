import {
  Inject,
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { AppError } from '@agentry/contracts';
import { catchError, finalize, map, of, type Observable } from 'rxjs';
import { toErrorBody, type RpcEnvelope } from './rpc-envelope.js';
import { logRpcFailure, recordRpcDuration } from './rpc-answer.js';
import type { Logger } from '../logging/logger.js';
import { LOGGER } from '../tokens.js';

/**
 * Wraps a plain `@MessagePattern` handler's reply in the envelope; expected errors log at warn, others at
 * error. `@RpcHandler` methods need none: `PrefixedServerNats` answers them in the envelope itself.
 */
@Injectable()
export class RpcEnvelopeInterceptor implements NestInterceptor {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<RpcEnvelope<unknown>> {
    const subject = context.switchToRpc().getContext<{ getSubject?: () => string }>()?.getSubject?.();
    const started = performance.now();
    let outcome = 'ok';
    return next.handle().pipe(
      map((data: unknown) => ({ ok: true as const, data: data === undefined ? null : data })),
      catchError((error: unknown) => {
        outcome = error instanceof AppError ? 'error' : 'crash';
        logRpcFailure(this.logger, subject, error);
        return of({ ok: false as const, error: toErrorBody(error) });
      }),
      finalize(() => recordRpcDuration(subject, started, outcome)),
    );
  }
}
