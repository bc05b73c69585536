import { Catch, Inject, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { LOGGER, type Logger } from '@agentry/platform';
import { ApiErrorFilter } from './api-error.filter.js';

const TOKEN_IN_PATH = /(\/webhook\/)[^/?#]+/;

/** The `/api` error edge for webhook triggers: the token in the path is a secret, so logs see it masked. */
@Catch()
export class ApiWebhookErrorFilter implements ExceptionFilter {
  private readonly inner: ApiErrorFilter;

  constructor(@Inject(LOGGER) logger: Logger) {
    this.inner = new ApiErrorFilter(logger);
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<{ url: string }>();
    const masked = new Proxy(request, {
      get: (target, key) =>
        key === 'url'
          ? target.url.replace(TOKEN_IN_PATH, '$1[redacted]')
          : (Reflect.get(target, key) as unknown),
    });
    const maskedHost = {
      ...host,
      switchToHttp: () => ({
        ...http,
        getRequest: () => masked,
        getResponse: () => http.getResponse(),
        getNext: () => http.getNext(),
      }),
    } as ArgumentsHost;
    this.inner.catch(exception, maskedHost);
  }
}
