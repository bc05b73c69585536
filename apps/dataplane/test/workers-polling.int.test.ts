import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkSubjects as W, type WorkPrincipal } from '@agentry/contracts';
import { ManualClock } from '@agentry/platform';
import { startDataplane, type DataplaneTestApp } from './dataplane-test-app.js';
import { seedSelfHostedEnvironment } from './self-hosted-fixture.js';

/** How long after its last poll a worker still counts as polling (CMA's `workers_polling`). */
const POLLING_WINDOW_MS = 30_000;

/**
 * The dataplane on a manual clock: how long ago a worker last polled is read from the injected clock,
 * so the test moves the clock past the window instead of waiting it out.
 */
describe('workers polling, on a manual clock', () => {
  const clock = new ManualClock(new Date());
  let dp: DataplaneTestApp;
  beforeAll(async () => {
    dp = await startDataplane({}, clock);
  });
  afterAll(async () => {
    await dp?.close();
  });

  const pollingCount = async (principal: WorkPrincipal) =>
    (await dp.rpc.request(W.stats, { principal })).workers_polling;

  it('counts a worker as polling for 30 s after its last poll, and no longer after that', async () => {
    const env = await seedSelfHostedEnvironment(dp.db.prisma);
    const key: WorkPrincipal = {
      tenantId: env.tenantId,
      namespaceId: env.namespaceId,
      environmentId: env.environmentId,
      workId: null,
      sessionId: null,
    };
    expect(await pollingCount(key)).toBe(0);

    // An empty queue and no wait: the poll answers at once, and the worker is seen.
    const reply = await dp.rpc.request(W.poll, { principal: key, workerId: 'worker-a', blockMs: 0 });
    expect(reply.work).toBeNull();
    expect(await pollingCount(key)).toBe(1);

    clock.advance(POLLING_WINDOW_MS - 1_000);
    expect(await pollingCount(key)).toBe(1);

    clock.advance(2_000);
    expect(await pollingCount(key)).toBe(0);

    // Polling again brings it back.
    await dp.rpc.request(W.poll, { principal: key, workerId: 'worker-a', blockMs: 0 });
    expect(await pollingCount(key)).toBe(1);
  });
});
