import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ID_PREFIXES, newId } from '@agentry/contracts';

/** Every response carries a `request-id` (CMA clients surface it in errors). */
export function configureHttp(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRequest', async (request, reply) => {
    const id = newId(ID_PREFIXES.request);
    (request as unknown as { requestId: string }).requestId = id;
    void reply.header('request-id', id);
  });
}
