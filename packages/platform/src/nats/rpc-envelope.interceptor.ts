import {
  Inject,
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { AppError } from '@agentry/contracts';
import { catchError, finalize, map, of, type Observable } from 'rxjs';
import { isDatabaseUnavailable } from '@agentry/db';
import { platformMetrics, secondsSince } from '../metrics/instruments.js';
import { toErrorBody, type RpcEnvelope } from './rpc-envelope.js';
import type { Logger } from '../logging/logger.js';
import { LOGGER } from '../tokens.js';

/** Wraps every NATS handler reply in the envelope; expected errors log at warn, others at error. */
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
        if (error instanceof AppError) {
          this.logger.warn({ subject, code: error.code, err: error.message }, 'rpc request failed');
        } else if (isDatabaseUnavailable(error)) {
          this.logger.warn(
            { subject, err: (error as Error).message },
            'rpc request failed: database unavailable',
          );
        } else {
          this.logger.error({ subject, err: error }, 'rpc handler crashed');
        }
        return of({ ok: false as const, error: toErrorBody(error) });
      }),
      finalize(() => {
        const labels = { 'messaging.destination.name': stripPrefix(subject), outcome };
        platformMetrics().rpcHandlerDuration.record(secondsSince(started), labels);
      }),
    );
  }
}

const SERVICE_SUBJECT =
  /^(?:[a-zA-Z0-9_-]+\.)?((?:control|dataplane|hands|scheduler|worker|gateway)\.[a-z0-9_.-]+)$/;

/** Subjects as the catalog names them: an installation's prefix (`staging.`) would only split the series. */
function stripPrefix(subject: string | undefined): string {
  if (!subject) return 'unknown';
  return SERVICE_SUBJECT.exec(subject)?.[1] ?? 'other';
}
