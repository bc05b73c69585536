import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { addToContext, createLogger } from '@agentry/platform';
import { nameRequests } from './configure-http.js';

describe('request ids', () => {
  it('puts the request-id a response carries on the log lines of that request, with the tenant once known', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    const logger = createLogger('gateway', 'info', sink);
    const fastify = Fastify();
    nameRequests(fastify);
    // Stands in for the guard that resolves the caller.
    fastify.addHook('preHandler', async () => {
      await Promise.resolve();
      addToContext({ tenantId: 'ten_1' });
    });
    fastify.get('/work', async () => {
      await new Promise((resolve) => setImmediate(resolve));
      logger.info('handling');
      return { ok: true };
    });

    const first = await fastify.inject({ method: 'GET', url: '/work' });
    const second = await fastify.inject({ method: 'GET', url: '/work' });

    const ids = [first.headers['request-id'], second.headers['request-id']];
    expect(ids[0]).toMatch(/^req_/);
    expect(ids[1]).not.toBe(ids[0]);
    expect(lines.map(({ requestId, tenantId }) => ({ requestId, tenantId }))).toEqual([
      { requestId: ids[0], tenantId: 'ten_1' },
      { requestId: ids[1], tenantId: 'ten_1' },
    ]);
    await fastify.close();
  });
});
