import { Catch, Inject, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { AppError } from '@agentry/contracts';
import { LOGGER, type Logger } from '@agentry/platform';
import { HttpErrorFilter } from '../http/http-error.filter.js';
import { camelCase } from './api-case.js';

type Reply = { send(body: unknown): unknown };

// `<field path>: <message>`, as the gateway's zod parsing words it; `body`/`query` name no single field.
const FIELD_MESSAGE = /^([A-Za-z_][\w.-]*): /;

/** The field an invalid-request error is about, when it names one, in `/api` (camelCase) spelling. */
export function paramOf(exception: unknown): string | undefined {
  if (!(exception instanceof AppError) || exception.code !== 'INVALID_REQUEST') return undefined;
  const field = FIELD_MESSAGE.exec(exception.message)?.[1];
  return field && field !== 'body' && field !== 'query' ? camelCase(field) : undefined;
}

/**
 * The `/api` error edge: the same envelope as `/v1` (`{type:"error", error:{type, code, message}}`) plus
 * AgentScope's `error.param` naming the offending field, which its clients show next to the input.
 */
@Catch()
export class ApiErrorFilter implements ExceptionFilter {
  private readonly inner: HttpErrorFilter;

  constructor(@Inject(LOGGER) logger: Logger) {
    this.inner = new HttpErrorFilter(logger);
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const param = paramOf(exception);
    if (param) {
      const reply = host.switchToHttp().getResponse<Reply>();
      const send = reply.send.bind(reply);
      reply.send = (body: unknown) => send(withParam(body, param));
    }
    this.inner.catch(exception, host);
  }
}

function withParam(body: unknown, param: string): unknown {
  const envelope = body as { error?: Record<string, unknown> };
  if (!envelope.error) return body;
  return { ...envelope, error: { ...envelope.error, param } };
}
