import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ID_PREFIXES, newId } from '@agentry/contracts';

/**
 * Every response carries a `request-id` (CMA clients surface it in errors). Array query parameters
 * arrive as `types[]=a&types[]=b`, which Fastify's default parser leaves under the bracketed key.
 */
export function configureHttp(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRequest', async (request, reply) => {
    const id = newId(ID_PREFIXES.request);
    (request as unknown as { requestId: string }).requestId = id;
    void reply.header('request-id', id);
  });
  fastify.addHook('preValidation', async (request) => {
    const query = request.query as Record<string, unknown> | undefined;
    if (!query) return;
    for (const key of Object.keys(query)) {
      if (key.endsWith('[]')) {
        const value = query[key];
        query[key.slice(0, -2)] = Array.isArray(value) ? value : [value];
        delete query[key];
      }
    }
  });
}
