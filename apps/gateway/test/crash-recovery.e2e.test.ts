import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  SseClient,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import type { Created, Page, SessionEvent, SessionState } from './wire-types.js';

/** A slow answer: the turn is still in the model call when the dataplane is killed. */
const SLOW_ANSWER = { turns: [{ reply: [{ delayMs: 3_000, text: 'Finished after the restart.' }] }] };

describe('a crashed dataplane loses nothing', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({
      databaseUrl: db.url,
      env: { AGENTRY_LEASE_TTL_MS: '2000', AGENTRY_RECONCILE_INTERVAL_MS: '500' },
    });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
  });

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  it('finishes the turn on a new dataplane after the old one is killed mid-turn', async () => {
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

    await platform.service('dataplane').kill('SIGKILL');
    const midway = await api.get<SessionState>(`/v1/sessions/${sessionId}`);
    expect(midway.body.status).toBe('running');
    platform.service('dataplane').start();
    await platform.service('dataplane').waitReady(60_000);

    await stream.waitFor((f) => f.some((x) => x.event === 'session.status_idle'), 60_000);
    await stream.close();
    const listed = await api.get<Page<SessionEvent>>(`/v1/sessions/${sessionId}/events?limit=1000`);
    const types = listed.body.data.map((e) => e.type);
    expect(types.filter((t) => t === 'agent.message')).toHaveLength(1);
    expect(types.filter((t) => t === 'user.message')).toHaveLength(1);
    expect(types.at(-1)).toBe('session.status_idle');
    const answer = listed.body.data.find((e) => e.type === 'agent.message');
    expect(answer?.content?.[0]?.text).toBe('Finished after the restart.');
    const final = await api.get(`/v1/sessions/${sessionId}`);
    expect(final.body).toMatchObject({ status: 'idle', stop_reason: { type: 'end_turn' } });
  });
});
