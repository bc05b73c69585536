import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';
import { addToContext, contextOfPayload, runWithContext } from './request-context.js';

function capturedLogger(): { logger: ReturnType<typeof createLogger>; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger('test', 'info', sink), lines };
}

describe('request context in log lines', () => {
  it('names the request, and the tenant once it is known, in every line inside the context', async () => {
    const { logger, lines } = capturedLogger();
    await runWithContext({ requestId: 'req_1' }, async () => {
      logger.info('before the caller is known');
      await Promise.resolve();
      addToContext({ tenantId: 'ten_1' });
      await new Promise((resolve) => setImmediate(resolve));
      logger.info('after');
    });
    logger.info('outside');

    expect(lines.map(({ msg, requestId, tenantId }) => ({ msg, requestId, tenantId }))).toEqual([
      { msg: 'before the caller is known', requestId: 'req_1', tenantId: undefined },
      { msg: 'after', requestId: 'req_1', tenantId: 'ten_1' },
      { msg: 'outside', requestId: undefined, tenantId: undefined },
    ]);
  });

  it('keeps concurrent requests apart', async () => {
    const { logger, lines } = capturedLogger();
    const handle = (id: string) =>
      runWithContext({ requestId: id }, async () => {
        await new Promise((resolve) => setImmediate(resolve));
        logger.info(id);
      });
    await Promise.all([handle('req_a'), handle('req_b')]);
    expect(lines.map(({ msg, requestId }) => [msg, requestId])).toEqual([
      ['req_a', 'req_a'],
      ['req_b', 'req_b'],
    ]);
  });

  it('reads the tenant and session a request between services names', () => {
    expect(contextOfPayload({ actor: { tenantId: 'ten_1' }, sessionId: 'sesn_1' })).toEqual({
      tenantId: 'ten_1',
      sessionId: 'sesn_1',
    });
    expect(contextOfPayload({ tenantId: 'ten_2', actor: { tenantId: 'ten_1' } })).toEqual({
      tenantId: 'ten_2',
    });
    expect(contextOfPayload('text')).toEqual({});
    expect(contextOfPayload({ sessionId: 42 })).toEqual({});
  });
});
