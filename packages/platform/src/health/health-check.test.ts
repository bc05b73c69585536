import { describe, expect, it } from 'vitest';
import { checkReadiness } from './health-check.js';

describe('checkReadiness', () => {
  it('is ok only when every dependency answers', async () => {
    const ok = await checkReadiness([{ name: 'postgres', check: () => Promise.resolve() }]);
    expect(ok.status).toBe('ok');
    const down = await checkReadiness([
      { name: 'postgres', check: () => Promise.resolve() },
      { name: 'redis', check: () => Promise.reject(new Error('ECONNREFUSED')) },
    ]);
    expect(down).toEqual({
      status: 'unavailable',
      checks: { postgres: { status: 'ok' }, redis: { status: 'down', error: 'ECONNREFUSED' } },
    });
  });

  it('reports a dependency that hangs as down after the timeout', async () => {
    const report = await checkReadiness([{ name: 'nats', check: () => new Promise(() => undefined) }], 50);
    expect(report.checks.nats).toEqual({ status: 'down', error: 'timed out' });
  });
});
