import { Catch, HttpException, Inject, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { AppError, HTTP_STATUS_BY_CODE, toErrorEnvelope, type ErrorCode } from '@agentry/contracts';
import { LOGGER, type Logger } from '@agentry/platform';

/** Status codes Fastify and Nest raise themselves (bad JSON, huge body, unknown route...). */
const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'INVALID_REQUEST',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  405: 'INVALID_REQUEST',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'INVALID_REQUEST',
  429: 'RATE_LIMITED',
};

/**
 * The one HTTP error edge: every failure leaves as `{type:"error", error:{type, message, code}, request_id}`.
 * Expected errors log at warn; anything else is a 500 whose details stay in the log.
 */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<{
      status(code: number): { send(body: unknown): void };
      type?(contentType: string): unknown;
      header?(name: string, value: string): unknown;
      sent?: boolean;
      raw: { headersSent: boolean };
    }>();
    const request = http.getRequest<{ requestId?: string; method: string; url: string }>();
    const error = this.toAppError(exception);
    const status = HTTP_STATUS_BY_CODE[error.code];
    if (status >= 500 && error.code !== 'UNAVAILABLE') {
      this.logger.error({ err: exception, method: request.method, url: request.url }, 'request failed');
    } else {
      this.logger.warn(
        { code: error.code, err: error.message, method: request.method, url: request.url },
        'request rejected',
      );
    }
    if (reply.raw.headersSent) return;
    // An error is JSON even where the route declared another type for its success (a tar archive).
    reply.type?.('application/json; charset=utf-8');
    const retryAfter = retryAfterSeconds(error);
    if (retryAfter !== undefined) reply.header?.('retry-after', String(retryAfter));
    reply.status(status).send(toErrorEnvelope(error, request.requestId ?? null));
  }

  private toAppError(exception: unknown): AppError {
    if (exception instanceof AppError) return exception;
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const code = CODE_BY_STATUS[status] ?? 'INTERNAL';
      const message = status === 404 ? 'No such route' : exception.message;
      return new AppError(code, message);
    }
    const fastifyError = exception as { statusCode?: number; code?: string; message?: string };
    if (typeof fastifyError.statusCode === 'number' && fastifyError.statusCode < 500) {
      const code = CODE_BY_STATUS[fastifyError.statusCode] ?? 'INVALID_REQUEST';
      return new AppError(code, describeFastifyError(fastifyError));
    }
    return new AppError('INTERNAL', 'Internal error');
  }
}

/** Seconds a client should wait before retrying: a rejection that says when, or a short outage. */
const DEFAULT_RETRY_AFTER_SECONDS: Partial<Record<ErrorCode, number>> = { UNAVAILABLE: 2, RATE_LIMITED: 1 };

function retryAfterSeconds(error: AppError): number | undefined {
  const stated = error.details?.retry_after_seconds;
  if (typeof stated === 'number' && Number.isFinite(stated) && stated > 0) return Math.ceil(stated);
  return DEFAULT_RETRY_AFTER_SECONDS[error.code];
}

function describeFastifyError(error: { code?: string; message?: string }): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return `Request body is not valid JSON: ${error.message ?? ''}`.trim();
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'Request body is larger than this server accepts';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported Content-Type: send application/json';
    default:
      return error.message ?? 'Bad request';
  }
}
