import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';

/** The Swagger UI files the reference page loads, from the npm package (never a CDN). */
const SWAGGER_UI_FILES = ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png'];

/** `apps/console/dist` beside the gateway's own folder, as the monorepo lays it out. */
function defaultConsoleDir(): string {
  return fileURLToPath(new URL('../../../console/dist', import.meta.url));
}

/**
 * Serves the reference page's assets under `/docs/assets/` (Swagger UI and the page's own script) and
 * the console's built files under `/console`, where any path outside its assets answers the console's
 * page, so its links can be opened directly. No authentication: the files hold no data; the API they
 * call checks every request.
 */
export async function registerStaticFiles(app: NestFastifyApplication, consoleDir: string): Promise<void> {
  const swaggerDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const fastify = app.getHttpAdapter().getInstance();
  await fastify.register(fastifyStatic, {
    root: swaggerDir,
    prefix: '/docs/assets/',
    wildcard: false,
    allowedPath: (path) => SWAGGER_UI_FILES.includes(path.replace(/^\//, '')),
    decorateReply: false,
    maxAge: '1h',
  });
  fastify.get('/docs/assets/reference.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').send(REFERENCE_SCRIPT),
  );
  const dir = consoleDir || defaultConsoleDir();
  const index = join(dir, 'index.html');
  await fastify.register(fastifyStatic, {
    root: join(dir, 'assets'),
    prefix: '/console/assets/',
    decorateReply: false,
    // Built file names carry a content hash: a cached copy never goes stale.
    maxAge: '365d',
    immutable: true,
  });
  // Read per request: a new build is served without restarting the gateway.
  const sendPage = async (_request: unknown, reply: FastifyReply) => {
    const page = await readFile(index, 'utf8').catch(() => null);
    if (page === null)
      return reply
        .code(404)
        .type('text/plain; charset=utf-8')
        .send('The console is not built: run `pnpm build`.');
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page);
  };
  fastify.get('/console', sendPage);
  fastify.get('/console/*', sendPage);
}

/** Starts Swagger UI on the committed document; "try it" calls this gateway with the token entered under Authorize. */
const REFERENCE_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/docs/openapi.json',
    dom_id: '#reference',
    deepLinking: true,
    validatorUrl: null,
    persistAuthorization: true,
    displayRequestDuration: true,
    filter: true,
    docExpansion: 'none',
    defaultModelsExpandDepth: 0,
    tryItOutEnabled: false,
  });
});
`;
