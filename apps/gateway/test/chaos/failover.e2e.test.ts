import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  ChaosSchedule,
  createTestDatabase,
  holdFault,
  launchPlatform,
  percentileOf,
  ResumingSseClient,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import { auditSession, leaseHolder, rounds } from './chaos-fixture.js';
import type { Created } from '../wire-types.js';

const KILLS = rounds(4);
/** When in the holder's cycles each kill lands: replayed from the printed seed with CHAOS_SEED. */
const schedule = new ChaosSchedule('chaos: failover');
/** The model call the kill lands in: long enough that only a takeover can have continued the turn. */
const MODEL_CALL_MS = 15_000;

/**
 * Failover with the settings an installation gets by default (a 10 s turn lease): kill -9 of the replica
 * holding a turn, and its peer continues the turn within seconds (it notices the dead replica's liveness
 * lapse, not the lease's expiry), with nothing lost or duplicated.
 */
describe('chaos: failover of a turn with the default settings', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;
  let agentId: string;
  let environmentId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({
      databaseUrl: db.url,
      replicas: { dataplane: 2 },
      readyTimeoutMs: 600_000,
    });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    const script = { turns: [{ reply: [{ delayMs: MODEL_CALL_MS, text: 'answered' }] }] };
    agentId = (await api.post<Created>('/v1/agents', { name: 'failover', model: { id: 'scripted', script } }))
      .body.id;
    environmentId = (
      await api.post<Created>('/v1/environments', { name: 'failover', config: { type: 'local' } })
    ).body.id;
  }, 700_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  it(
    `continues the turn on the peer within 5 s of each of ${KILLS} kills of its holder, p50 within 3 s`,
    async () => {
      const dataplanes = platform.replicasOf('dataplane');
      const failovers: number[] = [];
      for (let k = 0; k < KILLS; k += 1) {
        await Promise.all(dataplanes.map((p) => p.waitReady(600_000)));
        const sessionId = (
          await api.post<Created>('/v1/sessions', { agent: agentId, environment_id: environmentId })
        ).body.id;
        const stream = new ResumingSseClient(
          `${platform.gatewayUrl}/v1/sessions/${sessionId}/events/stream`,
          api.authHeaders,
          { after: 0 },
        );
        await api.post(`/v1/sessions/${sessionId}/events`, {
          events: [{ type: 'user.message', content: [{ type: 'text', text: 'go' }] }],
        });
        const starts = () => stream.frames.filter((f) => f.event === 'span.model_request_start');
        await stream.waitFor(() => starts().length === 1, 60_000, 'the model call');
        // Anywhere in the holder's lease renewal and liveness cycles.
        await holdFault(schedule.below(3_000));
        const holder = await leaseHolder(db, platform, sessionId);
        expect(holder, `kill ${k + 1}: a live replica holds the turn`).toBeDefined();
        const killedAt = Date.now();
        await holder!.kill('SIGKILL');
        holder!.start();
        await stream.waitFor(() => starts().length === 2, 60_000, 'the turn continuing on the peer');
        failovers.push(starts()[1]!.at - killedAt);
        await stream.waitFor((f) => f.some((x) => x.event === 'session.status_idle'), 60_000, 'the turn end');
        await stream.close();
        const audit = await auditSession(db, sessionId);
        expect([audit.gaps, audit.duplicateIds, audit.agentMessages]).toEqual([[], [], 1]);
      }
      console.log(
        `failover with default settings over ${KILLS} kills: p50 ${percentileOf(failovers, 50)} ms, ` +
          `max ${Math.max(...failovers)} ms (${failovers.join(', ')})`,
      );
      expect(Math.max(...failovers)).toBeLessThanOrEqual(5_000);
      expect(percentileOf(failovers, 50)).toBeLessThanOrEqual(3_000);
    },
    120_000 + KILLS * 60_000,
  );
});
