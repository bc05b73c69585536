import type { FastifyInstance } from 'fastify';
import { platformMetrics, secondsSince } from './instruments.js';

const STARTED = Symbol('agentry.requestStarted');
type Timed = { [STARTED]?: number };

/**
 * HTTP RED metrics per route template (never the raw URL, which carries ids). Requests no route
 * matched share one `unmatched` label.
 */
export function recordHttpMetrics(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    (request as Timed)[STARTED] = performance.now();
    done();
  });
  fastify.addHook('onResponse', async (request, reply) => {
    const started = (request as Timed)[STARTED];
    if (started === undefined) return;
    platformMetrics().httpDuration.record(secondsSince(started), {
      'http.request.method': request.method,
      'http.route': request.routeOptions.url ?? 'unmatched',
      'http.response.status_code': reply.statusCode,
    });
  });
}
