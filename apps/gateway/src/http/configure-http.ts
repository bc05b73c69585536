import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ID_PREFIXES, newId } from '@agentry/contracts';
import { registerJsonBodyParser } from './json-body.parser.js';

/** Every response carries a `request-id` (CMA clients surface it in errors); JSON bodies are parsed by our rules. */
export function configureHttp(app: NestFastifyApplication, bodyLimitBytes: number): void {
  registerJsonBodyParser(app, bodyLimitBytes);
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRequest', async (request, reply) => {
    const id = newId(ID_PREFIXES.request);
    (request as unknown as { requestId: string }).requestId = id;
    void reply.header('request-id', id);
  });
}
