import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditFrames,
  createTestDatabase,
  holdFault,
  ResumingSseClient,
  settleWithin,
  startOwnedNats,
  startOwnedPostgres,
  startOwnedRedis,
  type ApiClient,
  type OwnedPostgres,
  type OwnedProcess,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import {
  auditSession,
  BusySession,
  finishTurns,
  launchChaosPlatform,
  markerCommand,
  markers,
  poll,
  sessionStatus,
} from './chaos-fixture.js';
import type { Created } from '../wire-types.js';

/** `CHAOS_BACKING_RESTARTS=1` for the full run; `npm test` runs a bounded form with fewer sessions and turns. */
const FULL = process.env.CHAOS_BACKING_RESTARTS === '1';
const SESSIONS = FULL ? 4 : 2;
/** Turns each session must finish after each restart before the next. */
const TURNS_AFTER_RESTART = FULL ? 2 : 1;
const TURN = {
  match: '^turn ',
  reply: [
    { delayMs: 500, toolCall: { name: 'bash', input: { command: markerCommand('load', 0) } } },
    { delayMs: 300, text: 'turn done' },
  ],
};

/**
 * Restarts of NATS, Redis and Postgres, one at a time, under load on the platform with two dataplane
 * replicas and two workers, each backing service a private instance of this test: the platform recovers
 * with no manual action, every session keeps finishing turns, and nothing is lost or duplicated.
 */
describe('chaos: NATS, Redis and Postgres restart under load', () => {
  let logDir: string;
  let nats: OwnedProcess;
  let redis: OwnedProcess;
  let postgres: OwnedPostgres;
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;
  let disks: string[];

  beforeAll(async () => {
    logDir = mkdtempSync(join(tmpdir(), 'agentry-chaos-restarts-'));
    const ownedNats = await startOwnedNats(logDir);
    const ownedRedis = await startOwnedRedis(logDir);
    postgres = await startOwnedPostgres(logDir);
    nats = ownedNats.server;
    redis = ownedRedis.server;
    db = await createTestDatabase(postgres.url);
    ({ platform, api, disks } = await launchChaosPlatform({
      databaseUrl: db.url,
      natsUrl: ownedNats.url,
      redisUrl: ownedRedis.url,
      env: { AGENTRY_LEASE_TTL_MS: '2000', AGENTRY_RECONCILE_INTERVAL_MS: '1000' },
    }));
  }, 700_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.drop().catch(() => undefined);
    await postgres?.destroy();
    await redis?.stop();
    await nats?.stop();
    if (logDir) rmSync(logDir, { recursive: true, force: true });
  });

  it('keeps every session finishing turns through each restart; 503 with retry-after while Postgres is down', async () => {
    const agent = await api.post<Created>('/v1/agents', {
      name: 'busy',
      model: { id: 'scripted', script: { turns: [TURN] } },
      tools: [{ type: 'agent_toolset_20260401' }],
    });
    expect(agent.status, JSON.stringify(agent.body)).toBe(200);
    const environment = await api.post<Created>('/v1/environments', {
      name: 'busy',
      config: { type: 'local' },
    });
    const ids: string[] = [];
    for (let i = 0; i < SESSIONS; i += 1)
      ids.push(
        (
          await api.post<Created>('/v1/sessions', {
            agent: agent.body.id,
            environment_id: environment.body.id,
          })
        ).body.id,
      );
    const busy = ids.map(
      (id) =>
        new BusySession(
          api,
          id,
          new ResumingSseClient(`${platform.gatewayUrl}/v1/sessions/${id}/events/stream`, api.authHeaders, {
            after: 0,
          }),
        ),
    );
    const progressed = (what: string) => finishTurns(busy, TURNS_AFTER_RESTART, 180_000, what);
    await progressed('start');

    await nats.stop('SIGKILL');
    await holdFault(1_000); // a second away: long enough for every client to lose its connection
    await nats.start();
    await progressed('the NATS restart');

    await redis.stop('SIGKILL');
    await holdFault(1_000); // as for NATS
    await redis.start();
    await progressed('the Redis restart');

    await postgres.server.stop('SIGINT');
    const probes = [
      () => api.get(`/v1/sessions/${ids[0]}`),
      () =>
        api.post(`/v1/sessions/${ids[1]}/events`, {
          events: [{ type: 'user.message', content: [{ type: 'text', text: 'during the outage' }] }],
        }),
      // A stream would never end its body: fetch it with a bound instead.
      async () => {
        const response = await fetch(`${platform.gatewayUrl}/v1/sessions/${ids[2]}/events/stream`, {
          headers: { ...api.authHeaders, accept: 'text/event-stream' },
          signal: AbortSignal.timeout(10_000),
        });
        await response.body?.cancel();
        return response;
      },
      () => api.get('/v1/agents'),
    ];
    for (const probe of probes) {
      // An answer, not a hang: the bound allows for a shared machine under heavy load (12 s seen at load 50).
      const response = await settleWithin(20_000, 'answered, not hung', probe());
      expect(response.status).toBe(503);
      expect(Number(response.headers.get('retry-after')), 'retry hint').toBeGreaterThan(0);
    }
    await holdFault(2_000); // past the probes: the outage outlasts what a single request waits
    await postgres.start();
    await progressed('the Postgres restart');

    await Promise.all(busy.map((b) => b.stop()));
    let checked = 0;
    let resent = 0;
    for (const b of busy) {
      await poll(
        () => sessionStatus(api, b.id),
        (s) => s === 'idle',
        60_000,
        `${b.id} idle`,
      );
      const audit = await auditSession(db, b.id);
      expect(audit.gaps, `${b.id}: gaps`).toEqual([]);
      expect(audit.duplicateIds, `${b.id}: duplicate events`).toEqual([]);
      expect(audit.badResults, `${b.id}: tool results`).toEqual([]);
      // A post whose commit landed but whose answer was lost to an outage is sent again by the client: the copy
      // is answered with the message it reaches (one turn) or on its own (a turn of its own, once the first was
      // answered). Either way no turn ends without an answer, and no message is left unanswered.
      expect(audit.unansweredTurns, `${b.id}: every turn answers its messages`).toEqual([]);
      resent += audit.userMessages - audit.distinctUserTexts;
      // A blip of a dependency is waited out, never answered with a degraded call while a worker is alive.
      expect(
        audit.errorTexts.filter((text) =>
          /no Hands worker is alive|credentials could not be loaded/i.test(text),
        ),
        `${b.id}: calls failed for a dependency blip`,
      ).toEqual([]);
      const ran = markers(disks, b.id).length;
      expect(ran, `${b.id}: no call ran twice`).toBeLessThanOrEqual(audit.toolUses);
      expect(ran, `${b.id}: every call answered without error ran`).toBeGreaterThanOrEqual(
        audit.toolUses - audit.erroredCalls.size,
      );
      await b.stream.waitFor((f) => f.at(-1)?.seq === audit.events, 30_000, `${b.id}: stream caught up`);
      expect(auditFrames(b.stream.frames, 1, audit.events), `${b.id}: stream`).toEqual({
        duplicates: 0,
        missing: 0,
        outOfOrder: 0,
      });
      checked += audit.events + b.stream.frames.length;
      await b.stream.close();
    }
    console.log(
      `chaos: NATS, Redis and Postgres restarted under ${SESSIONS} busy sessions; ${busy.reduce((n, b) => n + b.turns, 0)} turns; ${checked} events checked; duplicates 0; messages sent again by the client after an error: ${resent}`,
    );
  }, 600_000);
});
