import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { ID_PREFIXES, newId } from '@agentry/contracts';
import { runWithContext } from '@agentry/platform';
import { registerJsonBodyParser } from './json-body.parser.js';

/**
 * Every response carries a `request-id` (CMA clients surface it in errors), and every log line written while
 * the request is handled carries it too; JSON bodies are parsed by our rules.
 */
export function configureHttp(app: NestFastifyApplication, bodyLimitBytes: number): void {
  registerJsonBodyParser(app, bodyLimitBytes);
  nameRequests(app.getHttpAdapter().getInstance());
}

/** Gives each request its id: the `request-id` response header, and the context of its log lines. */
export function nameRequests(fastify: FastifyInstance): void {
  // A callback hook: the rest of the request runs inside `done`, so inside the context.
  fastify.addHook('onRequest', (request, reply, done) => {
    const id = newId(ID_PREFIXES.request);
    (request as unknown as { requestId: string }).requestId = id;
    void reply.header('request-id', id);
    runWithContext({ requestId: id }, done);
  });
}
