import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  holdFault,
  launchPlatform,
  startOwnedNats,
  type OwnedProcess,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import { allReady, completeTurn, exited, openSession, readiness, waitFor } from './outage-fixture.js';

/** Longer than the ~20 s after which a NATS client with default options stops reconnecting for good. */
const OUTAGE_MS = 24_000;

describe('a NATS outage longer than the default reconnect budget', () => {
  let logDir: string;
  let nats: OwnedProcess;
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;

  beforeAll(async () => {
    logDir = mkdtempSync(join(tmpdir(), 'agentry-nats-outage-'));
    const owned = await startOwnedNats(logDir);
    nats = owned.server;
    db = await createTestDatabase();
    platform = await launchPlatform({ databaseUrl: db.url, natsUrl: owned.url });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
  });

  afterAll(async () => {
    await platform?.stop();
    await nats?.stop();
    await db?.drop();
    if (logDir) rmSync(logDir, { recursive: true, force: true });
  });

  it('turns every /readyz red while NATS is away, green after, and the API serves turns again', async () => {
    const sessionId = await openSession(api);
    await completeTurn(api, sessionId, 'before', 30_000);

    await nats.stop('SIGKILL');
    const outageEnds = Date.now() + OUTAGE_MS;
    const down = await waitFor(
      () => readiness(platform),
      (s) => Object.values(s).every((code) => code === 503),
      10_000,
      'readiness during the outage',
    );
    expect(Object.values(down)).toEqual([503, 503, 503, 503, 503]);
    const during = await api.get<{ error: { type: string } }>(`/v1/sessions/${sessionId}`);
    expect(during.status).toBe(503);
    expect(during.body.error.type).toBe('overloaded_error');
    // NATS stays away for the whole outage, past the point a default client gives up for good.
    await holdFault(Math.max(0, outageEnds - Date.now()));

    await nats.start();
    await waitFor(() => readiness(platform), allReady, 15_000, 'readiness after NATS is back');
    await completeTurn(api, sessionId, 'after', 30_000);
    expect(exited(platform)).toEqual([]);
  });
});
