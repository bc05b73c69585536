import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  holdFault,
  launchPlatform,
  percentileOf,
  quietPeriod,
  ResumingSseClient,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import { auditSession, leaseHolder } from './chaos-fixture.js';
import type { Created } from '../wire-types.js';

/** `CHAOS_PAUSE_MS=20000` for the full run; `npm test` freezes the replica for a bounded 10 s. */
const PAUSE_MS = Number(process.env.CHAOS_PAUSE_MS) || 10_000;
/** The model call the freeze lands in: the peer must take the turn over to finish it within the freeze. */
const MODEL_CALL_MS = 3_000;
/** Sessions whose event logs a client keeps reading while the replica is frozen. */
const READ_SESSIONS = 4;

interface Read {
  startedAt: number;
  ms: number;
  status: number;
}

/**
 * The pause nemesis: the dataplane replica holding a turn is frozen (SIGSTOP) well past its liveness window
 * while clients read event logs and stream the session. Its peer takes the turn over and finishes it; no
 * read waits on the frozen replica (which NATS goes on routing requests to); the stream carries the resumed
 * turn as it commits; once woken, the frozen replica writes nothing under its stale lease.
 */
describe('chaos: a dataplane replica frozen mid-turn', () => {
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
      // The reader sends its reads back to back, thousands in a freeze on a quiet machine: past the user's
      // rate limit, a 429 would say nothing about the stalled replica this test is about.
      env: { AGENTRY_RATE_LIMIT_PER_USER: '0' },
    });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    const script = { turns: [{ reply: [{ delayMs: MODEL_CALL_MS, text: 'answered' }] }] };
    agentId = (await api.post<Created>('/v1/agents', { name: 'paused', model: { id: 'scripted', script } }))
      .body.id;
    environmentId = (
      await api.post<Created>('/v1/environments', { name: 'paused', config: { type: 'local' } })
    ).body.id;
  }, 700_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  const newSession = async () =>
    (await api.post<Created>('/v1/sessions', { agent: agentId, environment_id: environmentId })).body.id;

  it(`keeps reads under a second and streams the resumed turn while its holder is frozen ${PAUSE_MS / 1000} s`, async () => {
    const readable = await Promise.all(Array.from({ length: READ_SESSIONS }, newSession));
    const sessionId = await newSession();
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
    const holder = await leaseHolder(db, platform, sessionId);
    expect(holder, 'a live replica holds the turn').toBeDefined();

    // A client reading event logs the whole time, one request after another.
    const reads: Read[] = [];
    let reading = true;
    const reader = (async () => {
      for (let i = 0; reading; i += 1) {
        const startedAt = Date.now();
        const response = await api.get(`/v1/sessions/${readable[i % READ_SESSIONS]}/events?limit=20`);
        reads.push({ startedAt, ms: Date.now() - startedAt, status: response.status });
      }
    })();

    const frozenAt = Date.now();
    holder!.pause();
    await stream.waitFor(
      (f) => f.some((x) => x.event === 'session.status_idle'),
      PAUSE_MS,
      'the turn finished by the peer while its holder is frozen',
    );
    // The rest of the freeze: reads go on while the frozen replica still holds its subscriptions.
    await holdFault(Math.max(0, frozenAt + PAUSE_MS - Date.now()));
    const thawedAt = Date.now();
    holder!.resume();
    reading = false;
    await reader;

    const during = reads.filter((r) => r.startedAt >= frozenAt && r.startedAt < thawedAt);
    const latencies = during.map((r) => r.ms);
    // Each event of the turn's continuation reached the stream within a second of its commit.
    const resumed = stream.frames.slice(stream.frames.indexOf(starts()[1]!));
    const lags = resumed.map(
      (f) => f.at - Date.parse((JSON.parse(f.data) as { processed_at: string }).processed_at),
    );
    console.log(
      `pause nemesis: holder frozen ${thawedAt - frozenAt} ms; ${during.length} reads, p50 ${percentileOf(latencies, 50)} ms, ` +
        `p99 ${percentileOf(latencies, 99)} ms, max ${Math.max(...latencies)} ms; ` +
        `stream lag of the resumed turn max ${Math.max(...lags)} ms over ${lags.length} events`,
    );
    expect(
      during.filter((r) => r.status !== 200),
      'reads answered',
    ).toEqual([]);
    expect(percentileOf(latencies, 99)).toBeLessThanOrEqual(1_000);
    expect(starts(), 'the peer continued the turn').toHaveLength(2);
    expect(Math.max(...lags)).toBeLessThanOrEqual(1_000);

    // Woken, the stale holder writes nothing: the log is one turn, whole.
    await holder!.waitReady(60_000);
    await quietPeriod(2_000); // what the woken replica had under way (its model call's end) is refused now
    const audit = await auditSession(db, sessionId);
    expect([audit.gaps, audit.duplicateIds, audit.agentMessages, audit.unansweredTurns]).toEqual([
      [],
      [],
      1,
      [],
    ]);
    await stream.close();
  }, 300_000);
});
