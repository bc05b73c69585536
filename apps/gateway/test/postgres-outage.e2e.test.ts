import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  holdFault,
  launchPlatform,
  settleWithin,
  startOwnedPostgres,
  type OwnedPostgres,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import {
  agentMessages,
  allReady,
  completeTurn,
  exited,
  openSession,
  readiness,
  waitFor,
} from './outage-fixture.js';

interface Created {
  id: string;
}

const SLOW_ANSWER = { turns: [{ reply: [{ delayMs: 2_000, text: 'Answered across the outage.' }] }] };

describe('a Postgres outage', () => {
  let logDir: string;
  let postgres: OwnedPostgres;
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;

  beforeAll(async () => {
    logDir = mkdtempSync(join(tmpdir(), 'agentry-pg-outage-'));
    postgres = await startOwnedPostgres(logDir);
    db = await createTestDatabase(postgres.url);
    platform = await launchPlatform({
      databaseUrl: db.url,
      env: { AGENTRY_LEASE_TTL_MS: '2000', AGENTRY_RECONCILE_INTERVAL_MS: '500' },
    });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
  });

  afterAll(async () => {
    await platform?.stop();
    await db?.drop().catch(() => undefined);
    await postgres?.destroy();
    if (logDir) rmSync(logDir, { recursive: true, force: true });
  });

  it('answers 503 with a retry hint while Postgres is down, crashes nothing, and finishes the interrupted turn after', async () => {
    const sessionId = await openSession(api);
    await completeTurn(api, sessionId, 'warm every pool up', 30_000);

    const agent = await api.post<Created>('/v1/agents', {
      name: 'slow',
      model: { id: 'scripted', script: SLOW_ANSWER },
    });
    const environment = await api.post<Created>('/v1/environments', {
      name: 'local',
      config: { type: 'local' },
    });
    const slow = (
      await api.post<Created>('/v1/sessions', { agent: agent.body.id, environment_id: environment.body.id })
    ).body.id;
    const sent = await api.post(`/v1/sessions/${slow}/events`, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'go' }] }],
    });
    expect(sent.status).toBe(200);
    await waitFor(
      async () => (await api.get<{ status: string }>(`/v1/sessions/${slow}`)).body.status,
      (s) => s === 'running',
      10_000,
      'turn start',
    );

    await postgres.server.stop('SIGINT');

    const read = await settleWithin(10_000, 'a read in the outage', api.get(`/v1/sessions/${sessionId}`));
    expect(read.status).toBe(503);
    expect(Number(read.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(read.body).toMatchObject({
      type: 'error',
      error: { type: 'overloaded_error', code: 'UNAVAILABLE' },
    });
    const write = await api.post('/v1/agents', { name: 'during the outage', model: { id: 'scripted' } });
    expect(write.status).toBe(503);
    expect(write.headers.get('retry-after')).toBeTruthy();

    const down = await waitFor(
      () => readiness(platform),
      (s) => s.control === 503 && s.dataplane === 503 && s.scheduler === 503,
      10_000,
      'readiness',
    );
    expect(down.gateway).toBe(200);
    // Long enough for idle pooled connections and in-flight turns to notice the outage.
    await holdFault(3_000);
    expect(exited(platform)).toEqual([]);

    await postgres.start();
    await waitFor(() => readiness(platform), allReady, 30_000, 'readiness after Postgres is back');
    await waitFor(
      () => agentMessages(api, slow),
      (n) => n === 1,
      60_000,
      'the interrupted turn',
    );
    await waitFor(
      async () => (await api.get<{ status: string }>(`/v1/sessions/${slow}`)).body.status,
      (s) => s === 'idle',
      30_000,
      'session idle',
    );
    await completeTurn(api, sessionId, 'after', 30_000);
    expect(exited(platform)).toEqual([]);
  });
});
