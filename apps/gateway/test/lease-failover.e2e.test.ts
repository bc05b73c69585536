import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  pollUntil,
  SseClient,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import type { Created, Page, SessionEvent } from './wire-types.js';

const LEASE_TTL_MS = 3_000;
/** A model call that outlives the lease, so the holder is renewing it when it dies. */
const SLOW_ANSWER = { turns: [{ reply: [{ delayMs: 5_000, text: 'Finished on the other replica.' }] }] };

/**
 * Two dataplane replicas; the one holding a turn's lease is killed mid-turn. The reconciler is slowed
 * to once a minute, so only the replicas' look for expired leases can bring the turn back: it must resume
 * on the surviving replica as soon as the dead holder's lease expires (DESIGN.md §6.8).
 */
describe('a dead dataplane replica is taken over when its lease expires', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({
      databaseUrl: db.url,
      replicas: { dataplane: 2 },
      env: {
        AGENTRY_LEASE_TTL_MS: String(LEASE_TTL_MS),
        AGENTRY_TAKEOVER_SCAN_MS: '500',
        AGENTRY_RECONCILE_INTERVAL_MS: '60000',
      },
    });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
  });

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  it('resumes the turn on the surviving replica within the lease TTL of the kill', async () => {
    const agent = await api.post<Created>('/v1/agents', {
      name: 'slow',
      model: { id: 'scripted', script: SLOW_ANSWER },
    });
    const environment = await api.post<Created>('/v1/environments', {
      name: 'local',
      config: { type: 'local' },
    });
    const session = await api.post<Created>('/v1/sessions', {
      agent: agent.body.id,
      environment_id: environment.body.id,
    });
    const sessionId = session.body.id;

    const stream = await SseClient.open(
      `${platform.gatewayUrl}/v1/sessions/${sessionId}/events/stream`,
      api.authHeaders,
    );
    await api.post(`/v1/sessions/${sessionId}/events`, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'go' }] }],
    });
    await stream.waitFor((f) => f.some((x) => x.event === 'span.model_request_start'));
    // Let the holder renew once, so the lease it leaves behind is a fresh one.
    const leaseOf = () => db.prisma.session.findUniqueOrThrow({ where: { id: sessionId } });
    const taken = (await leaseOf()).leaseExpiresAt!.getTime();
    const row = await pollUntil(
      'the holder to renew its lease',
      async () => {
        const current = await leaseOf();
        return current.leaseExpiresAt!.getTime() > taken ? current : undefined;
      },
      LEASE_TTL_MS * 2,
      { everyMs: 50 },
    );
    const holderPid = Number(row.leaseOwner!.split(':')[1]);
    const holder = platform.replicasOf('dataplane').find((p) => p.pid === holderPid)!;
    expect(holder).toBeDefined();
    const killedAt = Date.now();
    await holder.kill('SIGKILL');

    const starts = () => stream.frames.filter((f) => f.event === 'span.model_request_start').length;
    // Resumed within the lease's TTL and a little: the wait's own bound.
    await stream.waitFor(() => starts() === 2, LEASE_TTL_MS + 1_500);
    console.log(
      `lease takeover: the turn resumed ${Date.now() - killedAt} ms after the holder was killed (lease TTL ${LEASE_TTL_MS} ms)`,
    );

    await stream.waitFor((f) => f.some((x) => x.event === 'session.status_idle'), 30_000);
    await stream.close();
    const listed = await api.get<Page<SessionEvent>>(`/v1/sessions/${sessionId}/events?limit=1000`);
    const types = listed.body.data.map((e) => e.type);
    expect(types.filter((t) => t === 'agent.message')).toHaveLength(1);
    expect(types.at(-1)).toBe('session.status_idle');
    const final = await api.get(`/v1/sessions/${sessionId}`);
    expect(final.body).toMatchObject({ status: 'idle', stop_reason: { type: 'end_turn' } });
  });
});
