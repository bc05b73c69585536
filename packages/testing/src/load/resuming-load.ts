import type { ApiClient } from '../http/api-client.js';
import { auditFrames, ResumingSseClient } from '../http/resuming-sse-client.js';
import { ChaosSchedule } from '../chaos/chaos-schedule.js';
import { holdFault } from '../time/deliberate-waits.js';

/** What a create answers with that the load reads: the new resource's id. */
interface Created {
  id: string;
}

export interface ResumingLoadOptions {
  api: ApiClient;
  gatewayUrl: string;
  sessions: number;
  turnsPerSession: number;
  /** Chance, per turn, that the session's stream is cut at a random moment of it and resumed. */
  dropChance: number;
  /** A turn not idle after this counts its session as stuck. */
  turnTimeoutMs: number;
  /** Reads the session's log length (its last seq) from the source of truth. */
  lastSeq: (sessionId: string) => Promise<number>;
}

export interface ResumingLoadResult {
  sessions: number;
  turns: number;
  seconds: number;
  turnsPerSecond: number;
  /** `user.message` → `session.status_running`, as each client saw it, in ms. */
  pickups: number[];
  reconnects: number;
  events: number;
  duplicates: number;
  missing: number;
  outOfOrder: number;
  /** Sessions whose turn did not finish in time, with why. */
  stuck: string[];
}

/**
 * Many sessions, each running its turns one after another with an SSE client that is cut at random and
 * resumes with `Last-Event-ID`; at the end every client's frames are checked against the log.
 */
export async function runResumingLoad(options: ResumingLoadOptions): Promise<ResumingLoadResult> {
  const { api, gatewayUrl } = options;
  const agent = await api.post<Created>('/v1/agents', { name: 'load', model: 'scripted' });
  const environment = await api.post<Created>('/v1/environments', {
    name: 'load',
    config: { type: 'local' },
  });
  if (agent.status !== 200 || environment.status !== 200)
    throw new Error(`setup failed: ${agent.status} ${environment.status}`);
  const ids: string[] = [];
  while (ids.length < options.sessions) {
    const batch = Math.min(50, options.sessions - ids.length);
    const created = await Promise.all(
      Array.from({ length: batch }, () =>
        api.post<Created>('/v1/sessions', { agent: agent.body.id, environment_id: environment.body.id }),
      ),
    );
    for (const c of created) {
      if (c.status !== 200) throw new Error(`session create: ${c.status} ${JSON.stringify(c.body)}`);
      ids.push(c.body.id);
    }
  }
  const clients = ids.map(
    (id) =>
      new ResumingSseClient(`${gatewayUrl}/v1/sessions/${id}/events/stream`, api.authHeaders, { after: 0 }),
  );
  // Which streams are cut, and when: replayed from the printed seed with CHAOS_SEED.
  const schedule = new ChaosSchedule('resuming load');
  const pickups: number[] = [];
  const stuck: string[] = [];
  let turns = 0;
  const started = Date.now();

  const drive = async (sessionId: string, client: ResumingSseClient) => {
    for (let t = 0; t < options.turnsPerSession; t += 1) {
      const idles = client.frames.filter((f) => f.event === 'session.status_idle').length;
      const from = client.frames.length;
      const sent = await api.post(`/v1/sessions/${sessionId}/events`, {
        events: [{ type: 'user.message', content: [{ type: 'text', text: `turn ${t}` }] }],
      });
      if (sent.status !== 200) throw new Error(`${sessionId}: post ${sent.status}`);
      if (schedule.chance(options.dropChance)) void holdFault(schedule.below(200)).then(() => client.drop());
      await client.waitFor(
        (f) => f.filter((x) => x.event === 'session.status_idle').length > idles,
        options.turnTimeoutMs,
        `${sessionId} turn ${t}`,
      );
      const frames = client.frames.slice(from);
      const message = frames.find((f) => f.event === 'user.message');
      const running = frames.find((f) => f.event === 'session.status_running');
      if (message && running) pickups.push(running.at - message.at);
      turns += 1;
    }
  };
  await Promise.all(
    ids.map((id, i) =>
      drive(id, clients[i]!).catch((error: unknown) => {
        stuck.push(String(error instanceof Error ? error.message : error));
      }),
    ),
  );
  const seconds = (Date.now() - started) / 1000;

  let events = 0;
  let duplicates = 0;
  let missing = 0;
  let outOfOrder = 0;
  for (const [i, id] of ids.entries()) {
    const client = clients[i]!;
    const last = await options.lastSeq(id);
    await client
      .waitFor((f) => (f.at(-1)?.seq ?? 0) >= last, 30_000, `${id}: stream caught up to ${last}`)
      .catch((error: unknown) => stuck.push(String(error)));
    await client.close();
    const audit = auditFrames(client.frames, 1, last);
    events += last;
    duplicates += audit.duplicates;
    missing += audit.missing;
    outOfOrder += audit.outOfOrder;
  }
  return {
    sessions: ids.length,
    turns,
    seconds,
    turnsPerSecond: turns / seconds,
    pickups,
    reconnects: clients.reduce((n, c) => n + c.reconnects, 0),
    events,
    duplicates,
    missing,
    outOfOrder,
    stuck,
  };
}

export function percentileOf(samples: number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** One line of figures for a load run. */
export function describeLoad(r: ResumingLoadResult): string {
  return (
    `${r.sessions} sessions × ${r.turns / Math.max(1, r.sessions)} turns: ${r.turns} turns in ${r.seconds.toFixed(1)} s = ${r.turnsPerSecond.toFixed(1)} turns/s; ` +
    `pickup p50 ${percentileOf(r.pickups, 50)} ms, p99 ${percentileOf(r.pickups, 99)} ms; reconnects ${r.reconnects}; ` +
    `events ${r.events}; duplicates ${r.duplicates}, missing ${r.missing}, out of order ${r.outOfOrder}; stuck ${r.stuck.length}`
  );
}
