import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ChaosSchedule,
  auditFrames,
  createTestDatabase,
  holdFault,
  percentileOf,
  ResumingSseClient,
  type ApiClient,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import {
  auditSession,
  launchChaosPlatform,
  leaseHolder,
  markerCommand,
  markers,
  poll,
  rounds,
  sessionStatus,
  toolUseIds,
} from './chaos-fixture.js';
import type { Created, Page } from '../wire-types.js';

/** Where in a turn a round aims its kill; the script of each round stretches that moment out. */
const AIMS = ['model call', 'between tool_use and the tool', 'during the tool', 'status write'] as const;
type Aim = (typeof AIMS)[number];

const ROUNDS = rounds(6);
const SESSIONS = 3;
const LEASE_TTL_MS = 2_000;

function roundScript(n: number, aim: Aim): { match: string; reply: unknown[] } {
  const tag = `r${n}`;
  const match = `^${tag} `;
  if (aim === 'model call')
    return {
      match,
      reply: [
        { delayMs: 2_000, toolCall: { name: 'bash', input: { command: markerCommand(tag, 0) } } },
        `done ${tag}`,
      ],
    };
  if (aim === 'between tool_use and the tool')
    return {
      match,
      reply: [{ toolCall: { name: 'bash', input: { command: markerCommand(tag, 1) } } }, `done ${tag}`],
    };
  if (aim === 'during the tool')
    return {
      match,
      reply: [{ toolCall: { name: 'bash', input: { command: markerCommand(tag, 3) } } }, `done ${tag}`],
    };
  return {
    match,
    reply: [
      { toolCall: { name: 'bash', input: { command: markerCommand(tag, 0) } } },
      { delayMs: 200, text: `done ${tag}` },
    ],
  };
}

/** Every random choice of the run: the seed it prints replays the same kill schedule (CHAOS_SEED). */
const schedule = new ChaosSchedule('chaos: process kills');
/** A moment within `maxMs`, so each round's kill lands at a different point of the turn. */
const jitter = (maxMs: number) => holdFault(schedule.below(maxMs));

/**
 * The fault suite's process kills, on five services with two dataplane replicas and two workers:
 * whatever dies and wherever in a turn, every session finishes, its log has no gap and no duplicate,
 * each tool call has exactly one result, and no side-effecting call ran twice.
 */
describe('chaos: kill -9 of dataplane replicas, a worker and the gateway', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;
  let disks: string[];
  let agentId: string;
  let environmentId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    ({ platform, api, disks } = await launchChaosPlatform({
      databaseUrl: db.url,
      env: {
        AGENTRY_LEASE_TTL_MS: String(LEASE_TTL_MS),
        AGENTRY_HANDS_LIVENESS_MS: '3000',
        AGENTRY_HANDS_HEARTBEAT_MS: '500',
        AGENTRY_TOOL_TIMEOUT_MS: '30000',
      },
    }));
    const turns = Array.from({ length: ROUNDS }, (_, n) => roundScript(n, AIMS[n % AIMS.length]!));
    turns.push({
      match: '^slow ',
      reply: [
        { delayMs: 3_000, toolCall: { name: 'bash', input: { command: markerCommand('slow', 2) } } },
        { delayMs: 1_000, text: 'slow done' },
      ],
    });
    turns.push({
      match: '^worker ',
      reply: [{ toolCall: { name: 'bash', input: { command: markerCommand('worker', 20) } } }, 'worker done'],
    });
    const agent = await api.post<Created>('/v1/agents', {
      name: 'chaos',
      model: { id: 'scripted', script: { turns } },
      tools: [{ type: 'agent_toolset_20260401' }],
    });
    expect(agent.status, JSON.stringify(agent.body)).toBe(200);
    agentId = agent.body.id;
    environmentId = (
      await api.post<Created>('/v1/environments', { name: 'chaos', config: { type: 'local' } })
    ).body.id;
  }, 700_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  const newSession = async (): Promise<string> => {
    const created = await api.post<Created>('/v1/sessions', {
      agent: agentId,
      environment_id: environmentId,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return created.body.id;
  };
  const say = async (sessionId: string, text: string) => {
    const sent = await poll(
      () =>
        api.post<Page<Created>>(`/v1/sessions/${sessionId}/events`, {
          events: [{ type: 'user.message', content: [{ type: 'text', text }] }],
        }),
      (r) => r.status === 200,
      60_000,
      `posting "${text}"`,
      500,
    );
    return sent.body.data[0]!.id;
  };
  const stream = (sessionId: string) =>
    new ResumingSseClient(`${platform.gatewayUrl}/v1/sessions/${sessionId}/events/stream`, api.authHeaders, {
      after: 0,
    });
  const waitIdle = (sessionId: string, timeoutMs = 120_000) =>
    poll(
      () => sessionStatus(api, sessionId),
      (s) => s === 'idle',
      timeoutMs,
      `session ${sessionId} idle`,
      300,
    );

  /** Checks the log and every stream of the finished sessions; returns the number of events checked. */
  async function expectIntact(sessionIds: string[], streams: ResumingSseClient[]): Promise<number> {
    let checked = 0;
    for (const [i, sessionId] of sessionIds.entries()) {
      const audit = await auditSession(db, sessionId);
      expect(audit.gaps, `${sessionId}: gaps`).toEqual([]);
      expect(audit.duplicateIds, `${sessionId}: duplicate events`).toEqual([]);
      expect(audit.badResults, `${sessionId}: tool results`).toEqual([]);
      expect(audit.agentMessages, `${sessionId}: one answer per message`).toBe(audit.userMessages);
      expect(audit.lastType).toBe('session.status_idle');
      const client = streams[i]!;
      await client.waitFor(
        (f) => f.at(-1)?.seq === audit.events,
        30_000,
        `${sessionId}: stream reaches seq ${audit.events}`,
      );
      expect(auditFrames(client.frames, 1, audit.events), `${sessionId}: stream`).toEqual({
        duplicates: 0,
        missing: 0,
        outOfOrder: 0,
      });
      checked += audit.events + client.frames.length;
    }
    return checked;
  }

  it(
    `survives ${ROUNDS} kills of the dataplane replica running a turn, aimed across the turn`,
    async () => {
      const sessionIds = await Promise.all(Array.from({ length: SESSIONS }, newSession));
      const streams = sessionIds.map(stream);
      const dataplanes = platform.replicasOf('dataplane');
      const failovers: number[] = [];
      let holderKills = 0;
      const aimed = new Map<Aim, number>();

      for (let n = 0; n < ROUNDS; n += 1) {
        const aim = AIMS[n % AIMS.length]!;
        const sessionId = sessionIds[n % SESSIONS]!;
        const client = streams[n % SESSIONS]!;
        // A peer must be up to take over: the replica killed last round is back before the next kill.
        await Promise.all(dataplanes.map((p) => p.waitReady(600_000)));
        await waitIdle(sessionId);
        const seen = client.frames.length;
        const since = () => client.frames.slice(seen);
        await say(sessionId, `r${n} ${aim}`);

        if (aim === 'model call') {
          await client.waitFor(
            () => since().some((f) => f.event === 'span.model_request_start'),
            60_000,
            `r${n}: model call`,
          );
          await jitter(1_500);
        } else if (aim === 'between tool_use and the tool') {
          await client.waitFor(
            () => since().some((f) => f.event === 'agent.tool_use'),
            60_000,
            `r${n}: tool_use`,
          );
          await jitter(100);
        } else if (aim === 'during the tool') {
          await poll(
            () => Promise.resolve(markers(disks, sessionId).some((m) => m.startsWith(`r${n}.`))),
            Boolean,
            60_000,
            `r${n}: tool running`,
            50,
          );
          await jitter(1_000);
        } else {
          const at = n % 8 < 4 ? 'session.status_running' : 'agent.message';
          await client.waitFor(() => since().some((f) => f.event === at), 60_000, `r${n}: ${at}`);
          await jitter(30);
        }
        const holder = await leaseHolder(db, platform, sessionId);
        if (holder) holderKills += 1;
        const victim = holder ?? schedule.pick(dataplanes);
        const lastBefore = client.lastEventId;
        const killedAt = Date.now();
        await victim.kill('SIGKILL');
        victim.start();
        aimed.set(aim, (aimed.get(aim) ?? 0) + 1);

        await waitIdle(sessionId);
        // The round's turn ended on the stream: its idle may have come before the kill (it is committed with the
        // answer), so it is looked for among the round's frames rather than after the kill.
        await client.waitFor(
          () => since().some((f) => f.event === 'session.status_idle'),
          60_000,
          `r${n}: idle on the stream`,
        );
        // Failover: the kill until the peer's own model call of the same turn shows on the stream.
        const resumed = client.frames.find(
          (f) => f.seq > lastBefore && f.event === 'span.model_request_start',
        );
        if (holder && aim === 'model call' && resumed) failovers.push(resumed.at - killedAt);

        // The round's call ran at most once, and exactly once when it answered without error.
        const calls = await toolUseIds(db, sessionId);
        const audit = await auditSession(db, sessionId);
        const written = markers(disks, sessionId).filter((m) => m.startsWith(`r${n}.`));
        const callId = calls.at(-1)!;
        expect(written.length, `r${n} (${aim}): markers ${written.join(',')}`).toBeLessThanOrEqual(1);
        if (!audit.erroredCalls.has(callId))
          expect(written, `r${n} (${aim}): an answered call ran`).toHaveLength(1);
      }
      await Promise.all(dataplanes.map((p) => p.waitReady(600_000)));
      const checked = await expectIntact(sessionIds, streams);
      await Promise.all(streams.map((s) => s.close()));
      console.log(
        `chaos: ${ROUNDS} dataplane kills survived (${holderKills} of the lease holder; ${[...aimed].map(([a, c]) => `${a}: ${c}`).join(', ')}); ` +
          `${checked} events checked in logs and streams; duplicates 0; ` +
          `failover after a kill of the holder in the model call (${failovers.length}): p50 ${percentileOf(failovers, 50)} ms, p99 ${percentileOf(failovers, 99)} ms`,
      );
    },
    300_000 + ROUNDS * 90_000,
  );

  it('answers a call whose worker is killed during it once, and runs it no second time', async () => {
    const sessionId = await newSession();
    const client = stream(sessionId);
    await say(sessionId, 'worker go');
    await poll(
      () => Promise.resolve(markers(disks, sessionId).some((m) => m.startsWith('worker.'))),
      Boolean,
      60_000,
      'the tool running',
      100,
    );
    const holder = disks.findIndex((disk) => markers([disk], sessionId).length > 0);
    const worker = platform.replicasOf('worker')[holder]!;
    await worker.kill('SIGKILL');
    worker.start();
    await waitIdle(sessionId, 90_000);
    await worker.waitReady(600_000);
    const audit = await auditSession(db, sessionId);
    expect(audit.erroredCalls.size).toBe(1);
    expect(markers(disks, sessionId).filter((m) => m.startsWith('worker.'))).toHaveLength(1);
    await expectIntact([sessionId], [client]);
    await client.close();
  }, 240_000);

  it('delivers every event exactly once, in order, to streams that resume with Last-Event-ID after the gateway is killed', async () => {
    const sessionIds = await Promise.all(Array.from({ length: 4 }, newSession));
    const streams = sessionIds.map(stream);
    await Promise.all(sessionIds.map((id) => say(id, 'slow turn')));
    await Promise.all(
      streams.map((s) =>
        s.waitFor((f) => f.some((x) => x.event === 'span.model_request_start'), 60_000, 'turn started'),
      ),
    );
    const gateway = platform.service('gateway');
    const reconnectsBefore = streams.map((s) => s.reconnects);
    await gateway.kill('SIGKILL');
    // Events committed while no gateway is up must reach the clients after it is back.
    await holdFault(1_500);
    gateway.start();
    await gateway.waitReady(600_000);
    await Promise.all(sessionIds.map((id) => waitIdle(id)));
    streams.forEach((s, i) =>
      expect(s.reconnects, 'each client reconnected').toBeGreaterThan(reconnectsBefore[i]!),
    );
    const checked = await expectIntact(sessionIds, streams);
    await Promise.all(streams.map((s) => s.close()));
    console.log(
      `chaos: gateway killed with ${streams.length} streams open; ${checked} events checked; duplicates 0, missing 0`,
    );
  }, 300_000);
});
