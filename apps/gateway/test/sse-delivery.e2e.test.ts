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
import { NatsInterceptingProxy } from './nats-intercepting-proxy.js';

/** The gateway's pub/sub connection, by the name it gives NATS. */
const GATEWAY_BUS = 'gateway-bus';
const RECHECK_MS = 1_000;
const TRIALS = 30;

interface Created {
  id: string;
}

interface EventList {
  data: Array<{ id: string; type: string }>;
}

/** The id of the event a stream frame carries. */
const eventIdOf = (frame: { data: string }) => (JSON.parse(frame.data) as { id: string }).id;

/**
 * What a stream must deliver whatever NATS does: an event committed right after the stream opened,
 * and events whose NATS message never reached this gateway (lost, or sent during a reconnect).
 */
describe('SSE delivery: no event lost at stream start or to NATS', () => {
  let db: TestDatabase;
  let proxy: NatsInterceptingProxy;
  let platform: RunningPlatform;
  let api: ApiClient;
  let agentId: string;
  let environmentId: string;

  const newSession = async (): Promise<string> => {
    const session = await api.post<Created>('/v1/sessions', {
      agent: agentId,
      environment_id: environmentId,
    });
    expect(session.status).toBe(200);
    return session.body.id;
  };
  const open = (sessionId: string, path = `/v1/sessions/${sessionId}/events/stream`) =>
    SseClient.open(`${platform.gatewayUrl}${path}`, api.authHeaders);
  const say = async (sessionId: string, text: string): Promise<string> => {
    const sent = await api.post<EventList>(`/v1/sessions/${sessionId}/events`, {
      events: [{ type: 'user.message', content: [{ type: 'text', text }] }],
    });
    expect(sent.status).toBe(200);
    return sent.body.data[0]!.id;
  };
  /** Waits until the session's log holds the end of its turn. */
  const turnCommitted = (sessionId: string) =>
    pollUntil(
      `the turn of ${sessionId} to end`,
      async () => {
        const listed = await api.get<EventList>(`/v1/sessions/${sessionId}/events?limit=1000`);
        return listed.body.data.some((e) => e.type === 'session.status_idle');
      },
      30_000,
    );
  const ids = (stream: SseClient) => stream.frames.map(eventIdOf);
  const seqs = (stream: SseClient) => stream.frames.map((f) => Number(f.id));

  beforeAll(async () => {
    db = await createTestDatabase();
    proxy = await NatsInterceptingProxy.start();
    platform = await launchPlatform({
      databaseUrl: db.url,
      natsUrl: proxy.url,
      env: { AGENTRY_SSE_RECHECK_MS: String(RECHECK_MS) },
    });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    agentId = (await api.post<Created>('/v1/agents', { name: 'echo', model: 'scripted' })).body.id;
    environmentId = (
      await api.post<Created>('/v1/environments', { name: 'local', config: { type: 'local' } })
    ).body.id;
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
    await proxy?.stop();
    await db?.drop();
  });

  it(`delivers an event posted the moment a live stream opens (${TRIALS} trials)`, async () => {
    const trial = async (n: number) => {
      const sessionId = await newSession();
      const stream = await open(sessionId);
      expect(stream.status).toBe(200);
      // The stream is open (its response has begun): anything committed from here on must arrive.
      const eventId = await say(sessionId, `trial ${n}`);
      try {
        await stream.waitFor((frames) => frames.some((f) => eventIdOf(f) === eventId), 10_000);
      } finally {
        await stream.close();
      }
      const streamed = seqs(stream);
      expect(new Set(streamed).size).toBe(streamed.length);
    };
    const outcomes = await Promise.allSettled(Array.from({ length: TRIALS }, (_, n) => trial(n)));
    const lost = outcomes.filter((o) => o.status === 'rejected').map((o) => String(o.reason));
    expect(lost, lost.join('\n')).toEqual([]);
  }, 120_000);

  it('delivers a turn whose NATS messages never reached the gateway, from the log, within seconds', async () => {
    const sessionId = await newSession();
    const stream = await open(sessionId);
    proxy.drop = { client: GATEWAY_BUS, subject: /\.evt\./ };
    try {
      const eventId = await say(sessionId, 'nobody hears this on NATS');
      await turnCommitted(sessionId);
      // Nothing reaches the gateway on NATS: the session's quiet re-check must find the turn in the log.
      await stream.waitFor(
        (frames) => frames.some((f) => f.event === 'session.status_idle'),
        3 * RECHECK_MS + 3_000,
      );
      expect(ids(stream)[0]).toBe(eventId);
    } finally {
      proxy.drop = null;
      await stream.close();
    }
    const listed = await api.get<EventList>(`/v1/sessions/${sessionId}/events?limit=1000`);
    expect(ids(stream)).toEqual(listed.body.data.map((e) => e.id).slice(0, stream.frames.length));
  }, 60_000);

  it('finishes the turn on every stream after the gateway loses its NATS connection mid-turn: no gap, no duplicate', async () => {
    const sessionId = await newSession();
    const v1 = await open(sessionId);
    const api1 = await open(sessionId, `/api/sessions/${sessionId}/events/stream`);
    await say(sessionId, 'through a blip');
    expect(proxy.cut(GATEWAY_BUS)).toBeGreaterThan(0);
    try {
      await v1.waitFor((frames) => frames.some((f) => f.event === 'session.status_idle'), 20_000);
      const listed = await api.get<EventList>(`/v1/sessions/${sessionId}/events?limit=1000`);
      const all = listed.body.data.map((e) => e.id);
      expect(ids(v1)).toEqual(all.slice(0, v1.frames.length));
      await api1.waitFor((frames) => frames.length >= v1.frames.length, 20_000);
      expect(seqs(api1)).toEqual(Array.from({ length: api1.frames.length }, (_, i) => i + 1));
    } finally {
      await Promise.all([v1.close(), api1.close()]);
    }
  }, 60_000);
});
