import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/**
 * The JSON body parser of the public API: Fastify's own (prototype poisoning rejected), except that an
 * empty body sent with `content-type: application/json` is no body. SDKs and curl users send the header
 * by habit; a route that needs a body still says so when it parses it.
 */
export function registerJsonBodyParser(app: NestFastifyApplication, bodyLimit: number): void {
  const parseJson = app.getHttpAdapter().getInstance().getDefaultJsonParser('error', 'error');
  app.useBodyParser('application/json', { bodyLimit }, (request, body, done) => {
    const text = body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    // Callback style: the parser answers through `done`, so what it returns carries nothing.
    void parseJson(request as Parameters<typeof parseJson>[0], text, done);
  });
}
