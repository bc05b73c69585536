import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import {
  ApiClient,
  launchPlatform,
  type ResumingSseClient,
  pollFor,
  repoRoot,
  type LaunchOptions,
  type RunningPlatform,
  type ServiceProcess,
  type TestDatabase,
} from '@agentry/testing';

/** Rounds of a fault loop: `CHAOS_ROUNDS` for the full run, `fallback` (bounded) in `npm test`. */
export function rounds(fallback: number): number {
  const wanted = Number(process.env.CHAOS_ROUNDS);
  return Number.isInteger(wanted) && wanted > 0 ? wanted : fallback;
}

export interface ChaosPlatform {
  platform: RunningPlatform;
  api: ApiClient;
  /** Each worker's own disk, where session workspaces live while a worker holds them. */
  disks: string[];
}

/** The five services with two dataplane replicas and two workers, each worker on its own disk. */
export async function launchChaosPlatform(options: Omit<LaunchOptions, 'replicas'>): Promise<ChaosPlatform> {
  const root = join(repoRoot(), 'test-results', `chaos-${randomBytes(4).toString('hex')}`);
  const disks = [0, 1].map((i) => join(root, `worker-${i}`));
  for (const disk of disks) mkdirSync(disk, { recursive: true });
  const platform = await launchPlatform({
    // Seven Node processes starting at once on a shared two-core machine can take minutes.
    readyTimeoutMs: 600_000,
    ...options,
    replicas: { dataplane: 2, worker: 2 },
    replicaEnv: (name, index): Record<string, string> => ({
      ...(name === 'worker' ? { AGENTRY_WORKDIR_ROOT: disks[index]! } : {}),
      ...options.replicaEnv?.(name, index),
    }),
  });
  const api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
  return { platform, api, disks };
}

/** The dataplane replica holding the session's turn lease, if a live one does. */
export async function leaseHolder(
  db: TestDatabase,
  platform: RunningPlatform,
  sessionId: string,
): Promise<ServiceProcess | undefined> {
  const row = await db.prisma.session.findUnique({ where: { id: sessionId }, select: { leaseOwner: true } });
  const pid = Number(row?.leaseOwner?.split(':')[1]);
  return platform.replicasOf('dataplane').find((p) => p.running && p.pid === pid);
}

/** Polls `probe` until `accept` takes its value; fails with the last value after `timeoutMs`. */
export function poll<T>(
  probe: () => Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs: number,
  what: string,
  everyMs = 200,
): Promise<T> {
  return pollFor(what, probe, accept, timeoutMs, { everyMs });
}

export async function sessionStatus(api: ApiClient, sessionId: string): Promise<string | undefined> {
  const response = await api.get<{ status: string }>(`/v1/sessions/${sessionId}`).catch(() => undefined);
  return response?.status === 200 ? response.body.status : undefined;
}

interface LoggedEvent {
  seq: number;
  id: string;
  type: string;
  payload: Record<string, unknown>;
}

export interface SessionAudit {
  events: number;
  /** Sequence numbers missing between the first and the last. */
  gaps: number[];
  /** Event ids logged more than once. */
  duplicateIds: string[];
  toolUses: number;
  /** `tool_use` ids with other than exactly one result, and results answering no `tool_use`. */
  badResults: string[];
  /** Ids of tool calls answered with an error (e.g. interrupted by a crash). */
  erroredCalls: Set<string>;
  /** What those error results said. */
  errorTexts: string[];
  userMessages: number;
  /** Distinct texts among the user messages: a message a client sent again after an error counts once. */
  distinctUserTexts: number;
  agentMessages: number;
  /** Turns that went idle with a user message not answered by an agent message, or stopped other than at end_turn. */
  unansweredTurns: string[];
  lastType: string | undefined;
}

/** Reads the session's whole log straight from Postgres and checks it for gaps, duplicates and unanswered calls. */
export async function auditSession(db: TestDatabase, sessionId: string): Promise<SessionAudit> {
  const rows = await db.prisma.sessionEvent.findMany({
    where: { sessionId },
    orderBy: { seq: 'asc' },
    select: { seq: true, id: true, type: true, payload: true },
  });
  const log: LoggedEvent[] = rows.map((r) => ({
    seq: Number(r.seq),
    id: r.id,
    type: r.type,
    payload: (r.payload ?? {}) as Record<string, unknown>,
  }));
  const gaps: number[] = [];
  for (let i = 1; i < log.length; i += 1)
    for (let s = log[i - 1]!.seq + 1; s < log[i]!.seq; s += 1) gaps.push(s);
  const idCounts = new Map<string, number>();
  for (const e of log) idCounts.set(e.id, (idCounts.get(e.id) ?? 0) + 1);
  const uses = log.filter((e) => e.type === 'agent.tool_use').map((e) => e.id);
  const results = log.filter((e) => e.type === 'agent.tool_result');
  const resultCount = new Map<string, number>();
  const erroredCalls = new Set<string>();
  const errorTexts: string[] = [];
  for (const r of results) {
    const id = String(r.payload.tool_use_id);
    resultCount.set(id, (resultCount.get(id) ?? 0) + 1);
    if (r.payload.is_error === true) {
      erroredCalls.add(id);
      errorTexts.push(JSON.stringify(r.payload.content));
    }
  }
  const badResults = [
    ...uses
      .filter((id) => resultCount.get(id) !== 1)
      .map((id) => `${id}: ${resultCount.get(id) ?? 0} results`),
    ...[...resultCount.keys()]
      .filter((id) => !uses.includes(id))
      .map((id) => `${id}: result without tool_use`),
  ];
  return {
    events: log.length,
    gaps,
    duplicateIds: [...idCounts].filter(([, n]) => n > 1).map(([id]) => id),
    toolUses: uses.length,
    badResults,
    erroredCalls,
    errorTexts,
    userMessages: log.filter((e) => e.type === 'user.message').length,
    distinctUserTexts: new Set(
      log.filter((e) => e.type === 'user.message').map((e) => JSON.stringify(e.payload.content)),
    ).size,
    agentMessages: log.filter((e) => e.type === 'agent.message').length,
    unansweredTurns: unansweredTurns(log),
    lastType: log.at(-1)?.type,
  };
}

/** Each idle that ends a turn leaving a user message without an agent message after it, or ending other than at end_turn. */
function unansweredTurns(log: LoggedEvent[]): string[] {
  const found: string[] = [];
  let waiting: number[] = [];
  for (const e of log) {
    if (e.type === 'user.message') waiting.push(e.seq);
    else if (e.type === 'agent.message') waiting = [];
    else if (e.type === 'session.status_idle') {
      const stop = (e.payload.stop_reason as { type?: string } | undefined)?.type;
      if (waiting.length > 0 || stop !== 'end_turn')
        found.push(
          `idle at seq ${e.seq} (${stop}) leaves user messages ${waiting.join(',') || 'none'} unanswered`,
        );
      waiting = [];
    }
  }
  return found;
}

/** The tool_use ids of the session's calls, in order, from its log. */
export async function toolUseIds(db: TestDatabase, sessionId: string): Promise<string[]> {
  const rows = await db.prisma.sessionEvent.findMany({
    where: { sessionId, type: 'agent.tool_use' },
    orderBy: { seq: 'asc' },
    select: { id: true },
  });
  return rows.map((r) => r.id);
}

/** Names of the marker files a session's `bash` calls wrote, across every worker's disk (a workspace may have moved). */
export function markers(disks: string[], sessionId: string): string[] {
  const names = new Set<string>();
  for (const disk of disks) {
    const dirs = execFileSync('find', [disk, '-maxdepth', '2', '-type', 'd', '-name', sessionId], {
      encoding: 'utf8',
    })
      .split('\n')
      .filter(Boolean);
    for (const dir of dirs) {
      const folder = join(dir, 'workspace', 'markers');
      if (!existsSync(folder)) continue;
      for (const file of readdirSync(folder)) names.add(basename(file));
    }
  }
  return [...names];
}

/** A `bash` command that leaves one uniquely named marker per run, tagged so a test can tell calls apart. */
export function markerCommand(tag: string, sleepSeconds: number): string {
  return `mkdir -p markers && touch "markers/${tag}.$(date +%s%N).$$"${sleepSeconds > 0 ? ` && sleep ${sleepSeconds}` : ''}`;
}

/** Waits until every busy session has finished `turns` more turns than when called. */
export async function finishTurns(
  busy: readonly BusySession[],
  turns: number,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const marks = busy.map((b) => b.turns);
  await poll(
    () => Promise.resolve(busy.map((b) => b.turns)),
    (now) => now.every((t, i) => t >= marks[i]! + turns),
    timeoutMs,
    `every session finishing turns after ${what}`,
    500,
  );
}

/**
 * One session kept busy: a turn after another until stopped, posting again while the API is unavailable.
 * `finishedAt` holds when each turn's idle reached the client.
 */
export class BusySession {
  turns = 0;
  readonly finishedAt: number[] = [];
  private stopped = false;
  readonly done: Promise<void>;

  constructor(
    private readonly api: ApiClient,
    readonly id: string,
    readonly stream: ResumingSseClient,
  ) {
    this.done = this.run();
  }

  stop(): Promise<void> {
    this.stopped = true;
    return this.done;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const idles = this.stream.frames.filter((f) => f.event === 'session.status_idle').length;
      await poll(
        () =>
          this.api
            .post(`/v1/sessions/${this.id}/events`, {
              events: [{ type: 'user.message', content: [{ type: 'text', text: `turn ${this.turns}` }] }],
            })
            .catch(() => ({ status: 0 })),
        (r) => r.status === 200,
        180_000,
        `${this.id}: posting turn ${this.turns}`,
        500,
      );
      await this.stream.waitFor(
        (f) => f.filter((x) => x.event === 'session.status_idle').length > idles,
        180_000,
        `${this.id}: turn ${this.turns} finished`,
      );
      this.finishedAt.push(Date.now());
      this.turns += 1;
    }
  }
}
