import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditFrames,
  ChaosSchedule,
  createTestDatabase,
  holdFault,
  processUsage,
  repoRoot,
  ResumingSseClient,
  type ApiClient,
  type ProcessUsage,
  type RunningPlatform,
  type ServiceProcess,
  type TestDatabase,
} from '@agentry/testing';
import {
  auditSession,
  launchChaosPlatform,
  markerCommand,
  markers,
  poll,
  sessionStatus,
} from './chaos-fixture.js';
import type { Created } from '../wire-types.js';

/** How long the load runs: 3 minutes in `npm test` (about six kills), an hour on demand (SOAK_SECONDS=3600). */
const SECONDS = Number(process.env.SOAK_SECONDS) > 0 ? Number(process.env.SOAK_SECONDS) : 180;
const SESSIONS = 4;
/** Growth allowed from the end of the warm-up to the end, for a process that ran the whole soak. */
const MAX_RSS_GROWTH_BYTES = 96 * 1024 ** 2;
const MAX_OPEN_FILES_GROWTH = 32;
/** Readings before this share of the run are the warm-up (caches filling, JIT, pools opening). */
const WARM_UP_SHARE = 0.2;
const MiB = 1024 ** 2;

interface Sample {
  at: number;
  usage: ProcessUsage;
}

/**
 * Mixed load for a long time with periodic faults: sessions run turns with tool calls while their streams
 * are cut and resumed, one dataplane replica and one worker are killed and restarted in turn, and every
 * process's memory and open files are read throughout. The processes no fault touched must not grow past
 * the stated bounds; afterwards every session is intact, as in the fault suite.
 */
describe(`soak: ${SECONDS} s of turns, stream drops and kills`, () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;
  let disks: string[];

  beforeAll(async () => {
    db = await createTestDatabase();
    ({ platform, api, disks } = await launchChaosPlatform({
      databaseUrl: db.url,
      env: {
        AGENTRY_LEASE_TTL_MS: '2000',
        AGENTRY_HANDS_LIVENESS_MS: '3000',
        AGENTRY_HANDS_HEARTBEAT_MS: '500',
        AGENTRY_TOOL_TIMEOUT_MS: '30000',
      },
    }));
  }, 700_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  it(
    'keeps every process within its bounds and every session intact',
    async () => {
      const schedule = new ChaosSchedule('soak');
      const agent = await api.post<Created>('/v1/agents', {
        name: 'soak',
        model: {
          id: 'scripted',
          script: {
            turns: [
              {
                match: '^work ',
                reply: [{ toolCall: { name: 'bash', input: { command: markerCommand('soak', 0) } } }, 'done'],
              },
            ],
          },
        },
        tools: [{ type: 'agent_toolset_20260401' }],
      });
      expect(agent.status, JSON.stringify(agent.body)).toBe(200);
      const environment = await api.post<Created>('/v1/environments', {
        name: 'soak',
        config: { type: 'local' },
      });
      const sessionIds: string[] = [];
      for (let i = 0; i < SESSIONS; i += 1) {
        const created = await api.post<Created>('/v1/sessions', {
          agent: agent.body.id,
          environment_id: environment.body.id,
        });
        expect(created.status, JSON.stringify(created.body)).toBe(200);
        sessionIds.push(created.body.id);
      }
      const streams = sessionIds.map(
        (id) =>
          new ResumingSseClient(`${platform.gatewayUrl}/v1/sessions/${id}/events/stream`, api.authHeaders, {
            after: 0,
          }),
      );

      const started = Date.now();
      const deadline = started + SECONDS * 1000;
      const faulted = new Set<ServiceProcess>();
      const samples = new Map<ServiceProcess, Sample[]>();
      const everyone = () =>
        (['gateway', 'control', 'scheduler', 'dataplane', 'worker'] as const).flatMap((n) =>
          platform.replicasOf(n),
        );
      const label = (p: ServiceProcess) => `${p.name}#${platform.replicasOf(p.name).indexOf(p)}`;

      const sampling = (async () => {
        const every = Math.max(5_000, (SECONDS * 1000) / 60);
        while (Date.now() < deadline) {
          for (const p of everyone()) {
            const usage = p.pid === undefined ? undefined : await processUsage(p.pid);
            if (usage) samples.set(p, [...(samples.get(p) ?? []), { at: Date.now() - started, usage }]);
          }
          await holdFault(Math.min(every, Math.max(0, deadline - Date.now())));
        }
      })();

      // One dataplane replica and one worker, in turn, killed and started again every 20–40 s.
      const victims = [platform.replicasOf('dataplane')[1]!, platform.replicasOf('worker')[1]!];
      let kills = 0;
      const faults = (async () => {
        while (Date.now() + 45_000 < deadline) {
          await holdFault(20_000 + schedule.below(20_000));
          const victim = victims[kills % victims.length]!;
          faulted.add(victim);
          await victim.kill('SIGKILL');
          kills += 1;
          await holdFault(schedule.below(3_000));
          victim.start();
          await victim.waitReady(600_000);
        }
      })();

      let turns = 0;
      const drive = async (sessionId: string, client: ResumingSseClient) => {
        for (let n = 0; Date.now() < deadline; n += 1) {
          await poll(
            () => sessionStatus(api, sessionId),
            (s) => s === 'idle',
            180_000,
            `${sessionId} idle`,
            300,
          );
          const idles = client.frames.filter((f) => f.event === 'session.status_idle').length;
          const sent = await poll(
            () =>
              api.post(`/v1/sessions/${sessionId}/events`, {
                events: [{ type: 'user.message', content: [{ type: 'text', text: `work ${n}` }] }],
              }),
            (r) => r.status === 200,
            60_000,
            `${sessionId}: posting turn ${n}`,
            500,
          );
          expect(sent.status).toBe(200);
          if (schedule.chance(0.2)) void holdFault(schedule.below(300)).then(() => client.drop());
          await client.waitFor(
            (f) => f.filter((x) => x.event === 'session.status_idle').length > idles,
            180_000,
            `${sessionId}: turn ${n} idle`,
          );
          turns += 1;
          // Reads beside the writes, as a console polling the log would.
          await api.get(`/v1/sessions/${sessionId}/events?limit=50&order=desc`);
        }
      };
      await Promise.all(sessionIds.map((id, i) => drive(id, streams[i]!)));
      await Promise.all([sampling, faults]);

      // Growth of each process that no fault touched, from the end of the warm-up to the end.
      const rows = [...samples].map(([p, series]) => {
        const warm = series.find((s) => s.at >= SECONDS * 1000 * WARM_UP_SHARE) ?? series[0]!;
        const last = series.at(-1)!;
        return {
          process: label(p),
          restarted: faulted.has(p),
          rssStartMiB: +(warm.usage.rssBytes / MiB).toFixed(1),
          rssEndMiB: +(last.usage.rssBytes / MiB).toFixed(1),
          rssPeakMiB: +(Math.max(...series.map((s) => s.usage.rssBytes)) / MiB).toFixed(1),
          filesStart: warm.usage.openFiles,
          filesEnd: last.usage.openFiles,
          rssGrowth: last.usage.rssBytes - warm.usage.rssBytes,
          filesGrowth: last.usage.openFiles - warm.usage.openFiles,
        };
      });
      console.log(
        `soak: ${SECONDS} s, ${turns} turns over ${SESSIONS} sessions, ${kills} kills, seed ${schedule.seed}`,
      );
      console.table(rows.map(({ rssGrowth: _r, filesGrowth: _f, ...row }) => row));
      writeFileSync(
        join(repoRoot(), 'test-results', `soak-${SECONDS}s.json`),
        JSON.stringify({
          seconds: SECONDS,
          turns,
          kills,
          series: [...samples].map(([p, s]) => ({ process: label(p), s })),
        }),
      );

      for (const row of rows.filter((r) => !r.restarted)) {
        expect(row.rssGrowth, `${row.process}: RSS growth`).toBeLessThanOrEqual(MAX_RSS_GROWTH_BYTES);
        expect(row.filesGrowth, `${row.process}: open files growth`).toBeLessThanOrEqual(
          MAX_OPEN_FILES_GROWTH,
        );
      }

      for (const [i, sessionId] of sessionIds.entries()) {
        const audit = await auditSession(db, sessionId);
        expect(audit.gaps, `${sessionId}: gaps`).toEqual([]);
        expect(audit.duplicateIds, `${sessionId}: duplicate events`).toEqual([]);
        expect(audit.badResults, `${sessionId}: tool results`).toEqual([]);
        expect(audit.unansweredTurns, `${sessionId}: unanswered turns`).toEqual([]);
        expect(markers(disks, sessionId).length, `${sessionId}: no call ran twice`).toBeLessThanOrEqual(
          audit.toolUses,
        );
        const client = streams[i]!;
        await client.waitFor((f) => f.at(-1)?.seq === audit.events, 30_000, `${sessionId}: stream complete`);
        expect(auditFrames(client.frames, 1, audit.events), `${sessionId}: stream`).toEqual({
          duplicates: 0,
          missing: 0,
          outOfOrder: 0,
        });
        await client.close();
      }
      // A kill every 20–40 s, each followed by a restart that takes seconds more on a loaded machine.
      expect(kills, 'faults kept coming').toBeGreaterThanOrEqual(Math.max(1, Math.floor(SECONDS / 120)));
    },
    (SECONDS + 900) * 1000,
  );
});
