import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditFrames,
  createTestDatabase,
  releaseBuild,
  repoRoot,
  ResumingSseClient,
  type ApiClient,
  type RunningPlatform,
  type ServiceProcess,
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

/** The release being upgraded from: the last one on main before this one. */
const FROM = process.env.UPGRADE_FROM ?? 'd1064b7';
const SESSIONS = 20;
/** Turns every session finishes after each step (old code on the new schema, then each replacement). */
const TURNS_PER_STEP = 1;

/**
 * A rolling deploy loses nothing. The previous release runs with two dataplanes and two workers and twenty
 * sessions busy with turns and tool calls; the new release's migrations are applied under it; then each
 * process is stopped gracefully and replaced by the new build, one at a time, while the turns go on. Every
 * session keeps finishing turns at each step, and at the end every log has no gap, no duplicate, exactly one
 * result per tool call and no call that ran twice, and every stream got every event once, in order.
 */
describe(`upgrade: rolling deploy from ${FROM} to this build`, () => {
  let oldRoot: string;
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;
  let disks: string[];

  beforeAll(async () => {
    // Minutes the first time (install and build of the whole tree), then reused from .cache/releases.
    oldRoot = releaseBuild(FROM);
    // The database as the previous release left it: its own migrations only.
    db = await createTestDatabase(undefined, { migrationsOf: join(oldRoot, 'packages', 'db') });
    ({ platform, api, disks } = await launchChaosPlatform({
      databaseUrl: db.url,
      buildRoot: oldRoot,
      env: {
        AGENTRY_LEASE_TTL_MS: '2000',
        AGENTRY_HANDS_LIVENESS_MS: '3000',
        AGENTRY_HANDS_HEARTBEAT_MS: '500',
        AGENTRY_TOOL_TIMEOUT_MS: '30000',
      },
    }));
  }, 1_800_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  it('replaces every process with the new build while sessions run, losing and repeating nothing', async () => {
    const agent = await api.post<Created>('/v1/agents', {
      name: 'upgrade',
      model: {
        id: 'scripted',
        script: {
          turns: [
            {
              match: '^turn ',
              reply: [
                { toolCall: { name: 'bash', input: { command: markerCommand('upgrade', 1) } } },
                'done',
              ],
            },
          ],
        },
      },
      tools: [{ type: 'agent_toolset_20260401' }],
    });
    expect(agent.status, JSON.stringify(agent.body)).toBe(200);
    const environment = await api.post<Created>('/v1/environments', {
      name: 'upgrade',
      config: { type: 'local' },
    });
    expect(environment.status, JSON.stringify(environment.body)).toBe(200);
    const busy: BusySession[] = [];
    for (let i = 0; i < SESSIONS; i += 1) {
      const created = await api.post<Created>('/v1/sessions', {
        agent: agent.body.id,
        environment_id: environment.body.id,
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const id = created.body.id;
      busy.push(
        new BusySession(
          api,
          id,
          new ResumingSseClient(`${platform.gatewayUrl}/v1/sessions/${id}/events/stream`, api.authHeaders, {
            after: 0,
          }),
        ),
      );
    }
    const progressed = (what: string) => finishTurns(busy, TURNS_PER_STEP, 300_000, what);
    await progressed('the start on the previous release');

    // Expand: the new release's migrations, applied while the previous release runs on them.
    const migrating = Date.now();
    await db.migrate();
    const migrationMs = Date.now() - migrating;
    await progressed('the new migrations');

    const newRoot = repoRoot();
    // Those who answer before those who ask: a new caller may ask for something only the new release serves.
    const order: Array<[ServiceProcess, string]> = [
      [platform.service('control'), 'control'],
      [platform.service('scheduler'), 'scheduler'],
      [platform.replicasOf('dataplane')[1]!, 'dataplane#1'],
      [platform.replicasOf('dataplane')[0]!, 'dataplane#0'],
      [platform.replicasOf('worker')[1]!, 'worker#1'],
      [platform.replicasOf('worker')[0]!, 'worker#0'],
      [platform.service('gateway'), 'gateway'],
    ];
    const replaced: string[] = [];
    for (const [service, label] of order) {
      expect(service.buildRoot, `${label} runs the previous release`).toBe(oldRoot);
      const started = Date.now();
      // Graceful: SIGTERM, and the shutdown hooks get a minute before anything harsher.
      await service.stop(60_000);
      service.runFrom(newRoot);
      service.start();
      await service.waitReady(600_000);
      const readyMs = Date.now() - started;
      await progressed(`the replacement of ${label}`);
      replaced.push(`${label} ${(readyMs / 1000).toFixed(1)} s`);
    }
    for (const [service, label] of order) expect(service.buildRoot, `${label} upgraded`).toBe(newRoot);

    await Promise.all(busy.map((b) => b.stop()));
    let events = 0;
    let frames = 0;
    let toolCalls = 0;
    let errored = 0;
    /** What the calls answered with an error said, with how many times: the figures name each cause. */
    const errors = new Map<string, number>();
    for (const b of busy) {
      await poll(
        () => sessionStatus(api, b.id),
        (s) => s === 'idle',
        120_000,
        `${b.id} idle`,
      );
      const audit = await auditSession(db, b.id);
      expect(audit.gaps, `${b.id}: gaps`).toEqual([]);
      expect(audit.duplicateIds, `${b.id}: duplicate events`).toEqual([]);
      expect(audit.badResults, `${b.id}: tool results`).toEqual([]);
      expect(audit.unansweredTurns, `${b.id}: every turn answers its messages`).toEqual([]);
      expect(audit.lastType, `${b.id}: ends idle`).toBe('session.status_idle');
      const ran = markers(disks, b.id).length;
      expect(ran, `${b.id}: no call ran twice`).toBeLessThanOrEqual(audit.toolUses);
      expect(ran, `${b.id}: every call answered without error ran`).toBeGreaterThanOrEqual(
        audit.toolUses - audit.erroredCalls.size,
      );
      await b.stream.waitFor((f) => f.at(-1)?.seq === audit.events, 60_000, `${b.id}: stream caught up`);
      expect(auditFrames(b.stream.frames, 1, audit.events), `${b.id}: stream`).toEqual({
        duplicates: 0,
        missing: 0,
        outOfOrder: 0,
      });
      events += audit.events;
      frames += b.stream.frames.length;
      toolCalls += audit.toolUses;
      errored += audit.erroredCalls.size;
      for (const text of audit.errorTexts) {
        const cause = text.replace(/sesn_\w+/g, 'sesn_*').slice(0, 200);
        errors.set(cause, (errors.get(cause) ?? 0) + 1);
      }
      await b.stream.close();
    }
    console.log(
      `upgrade: ${FROM} -> this build under ${SESSIONS} sessions; ${busy.reduce((n, b) => n + b.turns, 0)} turns, ` +
        `${toolCalls} tool calls (${errored} answered with an error), ${events} logged events, ${frames} streamed frames; ` +
        `lost 0, duplicated 0; migrations ${(migrationMs / 1000).toFixed(1)} s; stop to ready: ${replaced.join(', ')}` +
        [...errors].map(([text, n]) => `\n  ${n} × ${text}`).join(''),
    );
    // In the supported order no new process asks an old one for what only the new release serves (before
    // control led, every sandbox a new worker opened failed on control.environment.hands_config).
    for (const text of errors.keys())
      expect(text, 'a call failed on a subject the previous release does not serve').not.toMatch(
        /did not answer control\.|could not be read/,
      );
  }, 3_600_000);
});
