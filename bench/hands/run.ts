/**
 * The Hands' tool round trip against a bare baseline measured in the same run: for `bash true` and a
 * 1 KB `write` in a cluster (`cloud`, bubblewrap) session, the time from the `agent.tool_use` commit to
 * the `agent.tool_result` commit (both `processed_at`, as the event log records them), against a bare
 * bubblewrap spawn and a bare fs write; and a `read` of one of the files written, against a bare fs read. Then the environment image: the build of the test package set
 * (apt cowsay, npm is-number@7.0.0, its cached layer removed first), and the cold start of a session's
 * sandbox on that cached image: the first tool call of a new session, whose scripted model answers with a
 * `bash true` at once, so the sandbox opened early when the turn started (HandsWarmup) is ahead of the call
 * by a few ms at most (printed). The figure is what the user waits for on that call, its tool_use commit to
 * its tool_result commit like the others. Needs built services (`pnpm build`),
 * bubblewrap, the userland (built by `npm start`/`npm test`), and Postgres, Redis and NATS.
 *
 *   npx tsx bench/hands/run.ts            100 calls of each, 20 cold starts
 *   npx tsx bench/hands/run.ts --calls=30 --cold=10
 *   npx tsx bench/hands/run.ts --calls=50 --cold=0   the warm round trips only (no image build)
 *   npx tsx bench/hands/run.ts --cold=0 --timings    and the worker's steps of each call (median ms)
 *   npx tsx bench/hands/run.ts --cold=0 --cpu-prof   and V8 profiles of every service (test-results/profiles)
 *   npx tsx bench/hands/run.ts --calls=0 --keep-layer --profile
 *                                         cold starts only: the cached layer kept (built if missing), and
 *                                         the worker's timing of each step of them (its debug log)
 */
import { dirname, join } from 'node:path';
import { rerunWithSources } from '../rerun-with-sources.js';

rerunWithSources(import.meta.url);

const { ApiClient, createTestDatabase, launchPlatform, UNLIMITED_PRINCIPALS } =
  await import('@agentry/testing');
const { loadAverage, percentile, printFigures } = await import('../platform/stats.js');
const { bareBubblewrapSpawns, bareFsReads, bareFsWrites } = await import('./bare.js');
const { brainRoundTrips, logEnd, printStepMedians } = await import('./timings.js');
const { coldStartSteps } = await import('./open-profile.js');
type Figure = import('../platform/stats.js').Figure;
type Json = Record<string, unknown>;

/** The fields of the API's replies the bench reads. */
interface Created {
  id: string;
}
interface SessionState {
  status: string;
  stop_reason?: { type?: string } | null;
}
interface LoggedEvent {
  id: string;
  type: string;
  processed_at: string;
  is_error?: boolean;
  /** On a tool result: the call it answers. */
  tool_use_id: string;
}
interface EventsPage {
  data: LoggedEvent[];
  next_page: string | null;
}
interface EnvironmentBuild {
  agentry_build: { started_at: string; finished_at: string };
}

const flag = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const calls = flag('calls', 100);
const colds = flag('cold', 20);
/** The worker logs each call's steps (debug level), printed after the figures as medians per tool. */
const timings = process.argv.includes('--timings');
const keepLayer = process.argv.includes('--keep-layer');
const profile = process.argv.includes('--profile');
/** V8 CPU profiles of every service, written to test-results/profiles when the platform stops. */
const cpuProfile = process.argv.includes('--cpu-prof');
const { dropCachedLayer, PACKAGES } = await import('./layers.js');
const KB = 'x'.repeat(1023) + '\n';

console.log(`# Agentry Hands bench (${calls} calls each), load average before: ${loadAverage()}`);
const db = await createTestDatabase();
const platform = await launchPlatform({
  databaseUrl: db.url,
  env: { ...UNLIMITED_PRINCIPALS, AGENTRY_LOG_LEVEL: 'warn' },
  replicaEnv: (service): Record<string, string> =>
    // The dataplane's debug log holds each call's round trip as the Brain waits for it (see brainRoundTrips).
    service === 'dataplane' || ((timings || profile) && service === 'worker')
      ? { AGENTRY_LOG_LEVEL: 'debug' }
      : {},
  nodeArgs: cpuProfile ? ['--cpu-prof', '--cpu-prof-dir=test-results/profiles'] : [],
});
const dataplaneLog = join(platform.workdirRoot, '..', 'dataplane.log');
/** The session of the last turn `roundTrips` ran, and how long before its first tool_use its user message was committed. */
let lastSession = '';
let lastHeadStartMs = NaN;
try {
  const api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
  const environment = await api.post<Created>('/v1/environments', {
    name: 'bench-cloud',
    config: { type: 'cloud' },
  });

  /**
   * One turn of `count` tool calls (after `setup`, a call whose own time is not counted); returns each
   * counted call's tool_use → tool_result commit gap in ms.
   */
  async function roundTrips(
    count: number,
    toolCall: (i: number) => { name: string; input: Json },
    environmentId: string = environment.body.id,
    setup?: { name: string; input: Json },
  ): Promise<number[]> {
    const turnCalls = [...(setup ? [setup] : []), ...Array.from({ length: count }, (_, i) => toolCall(i))];
    const reply = [...turnCalls.map((call) => ({ toolCall: call })), 'done'];
    const agent = await api.post<Created>('/v1/agents', {
      name: 'bench hands',
      model: { id: 'scripted', script: { turns: [{ reply }] } },
      tools: [{ type: 'agent_toolset_20260401' }],
    });
    const session = await api.post<Created>('/v1/sessions', {
      agent: agent.body.id,
      environment_id: environmentId,
    });
    lastSession = session.body.id;
    await api.post(`/v1/sessions/${session.body.id}/events`, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'go' }] }],
    });
    const deadline = Date.now() + 600_000;
    for (;;) {
      const s = await api.get<SessionState>(`/v1/sessions/${session.body.id}`);
      if (s.body.status === 'idle' && s.body.stop_reason?.type === 'end_turn') break;
      if (Date.now() > deadline) throw new Error('the bench turn did not end');
      await new Promise((r) => setTimeout(r, 200));
    }
    const events: LoggedEvent[] = [];
    for (let page: string | null = null; ;) {
      const reply: { body: EventsPage } = await api.get<EventsPage>(
        `/v1/sessions/${session.body.id}/events?limit=100${page ? `&page=${encodeURIComponent(page)}` : ''}`,
      );
      events.push(...reply.body.data);
      page = reply.body.next_page;
      if (!page) break;
    }
    const usedAt = new Map(
      events.filter((e) => e.type === 'agent.tool_use').map((e) => [e.id, Date.parse(e.processed_at)]),
    );
    // Cluster Hands run the built-in tools, so their results are `agent.tool_result` events.
    const results = events.filter((e) => e.type === 'agent.tool_result');
    const failed = results.filter((e) => e.is_error);
    if (failed.length > 0)
      throw new Error(`${failed.length} tool calls failed: ${JSON.stringify(failed[0])}`);
    if (results.length !== turnCalls.length || results.some((e) => !usedAt.has(e.tool_use_id)))
      throw new Error(
        `expected ${turnCalls.length} results, each after its tool_use; got ${results.length} results, ${usedAt.size} tool_uses of ${events.length} events`,
      );
    const userAt = events.find((e) => e.type === 'user.message');
    lastHeadStartMs = userAt ? Math.min(...usedAt.values()) - Date.parse(userAt.processed_at) : NaN;
    const gaps = results
      .map((e) => ({
        usedAt: usedAt.get(e.tool_use_id)!,
        ms: Date.parse(e.processed_at) - usedAt.get(e.tool_use_id)!,
      }))
      .sort((a, b) => a.usedAt - b.usedAt);
    return gaps.slice(setup ? 1 : 0).map((gap) => gap.ms);
  }

  // Warm the session sandbox path once so the first spawn's page faults are not in either figure.
  await roundTrips(3, () => ({ name: 'bash', input: { command: 'true' } }));
  await bareBubblewrapSpawns(5);

  /** A turn runs a bounded number of model steps, so the calls are spread over turns of 25 each. */
  async function manyRoundTrips(
    toolCall: (i: number) => { name: string; input: Json },
    setup?: { name: string; input: Json },
  ): Promise<number[]> {
    const samples: number[] = [];
    while (samples.length < calls)
      samples.push(
        ...(await roundTrips(
          Math.min(setup ? 24 : 25, calls - samples.length),
          (i) => toolCall(samples.length + i),
          environment.body.id,
          setup,
        )),
      );
    return samples;
  }

  const phaseStarts = [logEnd(dataplaneLog)];
  const bash = await manyRoundTrips(() => ({ name: 'bash', input: { command: 'true' } }));
  phaseStarts.push(logEnd(dataplaneLog));
  const write = await manyRoundTrips((i) => ({
    name: 'write',
    input: { file_path: `bench/f${i}.txt`, content: KB },
  }));
  phaseStarts.push(logEnd(dataplaneLog));
  // Each turn is a new session: its first call writes the file the others read.
  const read = await manyRoundTrips(() => ({ name: 'read', input: { file_path: 'bench/r.txt' } }), {
    name: 'write',
    input: { file_path: 'bench/r.txt', content: KB },
  });
  const brain = {
    bash: brainRoundTrips(dataplaneLog, 'bash', phaseStarts[0]!, phaseStarts[1]),
    write: brainRoundTrips(dataplaneLog, 'write', phaseStarts[1]!, phaseStarts[2]),
    read: brainRoundTrips(dataplaneLog, 'read', phaseStarts[2]!),
  };
  const bareSpawn = await bareBubblewrapSpawns(calls);
  const bareWrite = await bareFsWrites(calls, KB);
  const bareRead = await bareFsReads(calls, KB);

  const figures: Figure[] = [];
  for (const p of [50, 99]) {
    figures.push({
      name: `bash true round trip p${p}`,
      platform: percentile(bash, p),
      bare: percentile(bareSpawn, p),
      unit: 'ms',
    });
    figures.push({
      name: `1 KB write round trip p${p}`,
      platform: percentile(write, p),
      bare: percentile(bareWrite, p),
      unit: 'ms',
    });
    figures.push({
      name: `1 KB read round trip p${p}`,
      platform: percentile(read, p),
      bare: percentile(bareRead, p),
      unit: 'ms',
    });
  }
  printFigures(
    'Tool round trip: agent.tool_use committed → agent.tool_result committed (bare: bwrap spawn / fs write / fs read)',
    figures,
  );
  const handsFigures: Figure[] = [];
  for (const p of [50, 99])
    for (const [tool, bare, label] of [
      ['bash', bareSpawn, 'bash true'],
      ['write', bareWrite, '1 KB write'],
      ['read', bareRead, '1 KB read'],
    ] as const)
      handsFigures.push({
        name: `${label} Hands round trip p${p} (${brain[tool].length} calls)`,
        platform: percentile(brain[tool], p),
        bare: percentile(bare, p),
        unit: 'ms',
      });
  printFigures(
    'Hands round trip: the call handed to the Hands → its outcome back in the Brain (binding, NATS, worker, reply)',
    handsFigures,
  );

  /** The environment image: its build and cold starts on it (skipped with --cold=0). */
  async function imageFigures(): Promise<void> {
    // The environment image: its build (the first call of its first session waits for it), then cold starts.
    if (!keepLayer) await dropCachedLayer();
    const packaged = await api.post<Created>('/v1/environments', {
      name: 'bench-packages',
      config: { type: 'cloud', packages: PACKAGES },
    });
    const firstCall = await roundTrips(
      1,
      () => ({ name: 'bash', input: { command: 'true' } }),
      packaged.body.id,
    );
    const build = (await api.get<EnvironmentBuild>(`/v1/environments/${packaged.body.id}`)).body
      .agentry_build;
    const buildMs = Date.parse(build.finished_at) - Date.parse(build.started_at);
    const cold: number[] = [];
    const coldSessions = new Set<string>();
    const headStarts: number[] = [];
    for (let i = 0; i < colds; i += 1) {
      cold.push(
        ...(await roundTrips(1, () => ({ name: 'bash', input: { command: 'true' } }), packaged.body.id)),
      );
      coldSessions.add(lastSession);
      headStarts.push(lastHeadStartMs);
    }
    const bareCold = await bareBubblewrapSpawns(colds);
    printFigures('Environment image (test package set) and cold start of a session sandbox on it (cached)', [
      {
        name: 'image build (agentry_build started → finished)',
        platform: buildMs,
        bare: buildMs,
        unit: 'ms',
      },
      {
        name: "first session's first bash (waits for the build)",
        platform: firstCall[0]!,
        bare: buildMs,
        unit: 'ms',
      },
      {
        name: 'first tool call of a new session (cached image), bash true p50',
        platform: percentile(cold, 50),
        bare: percentile(bareCold, 50),
        unit: 'ms',
      },
      {
        name: 'first tool call of a new session (cached image), bash true p99',
        platform: percentile(cold, 99),
        bare: percentile(bareCold, 99),
        unit: 'ms',
      },
    ]);
    // The early opening starts with the turn (HandsWarmup), so this is the most it can be ahead of the call.
    console.log(
      `\nuser.message committed → first agent.tool_use committed, p50 ${percentile(headStarts, 50)} ms (the head start of the early opening, at most)`,
    );
    if (profile) await coldStartSteps(dirname(platform.workdirRoot), coldSessions);
  }

  if (timings) printStepMedians(join(platform.workdirRoot, '..', 'worker.log'));
  if (colds > 0) await imageFigures();
  console.log(`\nload average after: ${loadAverage()}`);
} finally {
  await platform.stop();
  await db.drop();
}
