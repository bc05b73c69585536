/**
 * The Hands' tool round trip against a bare baseline measured in the same run: for `bash true` and a
 * 1 KB `write` in a cluster (`cloud`, bubblewrap) session, the time from the `agent.tool_use` commit to
 * the `agent.tool_result` commit (both `processed_at`, as the event log records them), against a bare
 * bubblewrap spawn and a bare fs write. Then the environment image: the build of the test package set
 * (apt cowsay, npm is-number@7.0.0, its cached layer removed first), and the cold start of a session's
 * sandbox on that cached image (a new session's first `bash true`). Needs built services (`pnpm build`),
 * bubblewrap, the userland (built by `npm start`/`npm test`), and Postgres, Redis and NATS.
 *
 *   npx tsx bench/hands/run.ts            100 calls of each, 20 cold starts
 *   npx tsx bench/hands/run.ts --calls=30 --cold=10
 */
import { rerunWithSources } from '../rerun-with-sources.js';

rerunWithSources(import.meta.url);

const { ApiClient, createTestDatabase, launchPlatform, UNLIMITED_PRINCIPALS } =
  await import('@agentry/testing');
const { loadAverage, percentile, printFigures } = await import('../platform/stats.js');
const { bareBubblewrapSpawns, bareFsWrites } = await import('./bare.js');
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
const { dropCachedLayer, PACKAGES } = await import('./layers.js');
const KB = 'x'.repeat(1023) + '\n';

console.log(`# Agentry Hands bench (${calls} calls each), load average before: ${loadAverage()}`);
const db = await createTestDatabase();
const platform = await launchPlatform({
  databaseUrl: db.url,
  env: { ...UNLIMITED_PRINCIPALS, AGENTRY_LOG_LEVEL: 'warn' },
});
try {
  const api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
  const environment = await api.post<Created>('/v1/environments', {
    name: 'bench-cloud',
    config: { type: 'cloud' },
  });

  /** One turn of `count` tool calls; returns each call's tool_use → tool_result commit gap in ms. */
  async function roundTrips(
    count: number,
    toolCall: (i: number) => { name: string; input: Json },
    environmentId: string = environment.body.id,
  ): Promise<number[]> {
    const reply = [...Array.from({ length: count }, (_, i) => ({ toolCall: toolCall(i) })), 'done'];
    const agent = await api.post<Created>('/v1/agents', {
      name: 'bench hands',
      model: { id: 'scripted', script: { turns: [{ reply }] } },
      tools: [{ type: 'agent_toolset_20260401' }],
    });
    const session = await api.post<Created>('/v1/sessions', {
      agent: agent.body.id,
      environment_id: environmentId,
    });
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
    if (results.length !== count || results.some((e) => !usedAt.has(e.tool_use_id)))
      throw new Error(
        `expected ${count} results, each after its tool_use; got ${results.length} results, ${usedAt.size} tool_uses of ${events.length} events`,
      );
    return results.map((e) => Date.parse(e.processed_at) - usedAt.get(e.tool_use_id)!);
  }

  // Warm the session sandbox path once so the first spawn's page faults are not in either figure.
  await roundTrips(3, () => ({ name: 'bash', input: { command: 'true' } }));
  await bareBubblewrapSpawns(5);

  /** A turn runs a bounded number of model steps, so the calls are spread over turns of 25 each. */
  async function manyRoundTrips(toolCall: (i: number) => { name: string; input: Json }): Promise<number[]> {
    const samples: number[] = [];
    while (samples.length < calls)
      samples.push(
        ...(await roundTrips(Math.min(25, calls - samples.length), (i) => toolCall(samples.length + i))),
      );
    return samples;
  }

  const bash = await manyRoundTrips(() => ({ name: 'bash', input: { command: 'true' } }));
  const write = await manyRoundTrips((i) => ({
    name: 'write',
    input: { file_path: `bench/f${i}.txt`, content: KB },
  }));
  const bareSpawn = await bareBubblewrapSpawns(calls);
  const bareWrite = await bareFsWrites(calls, KB);

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
  }
  printFigures(
    'Tool round trip: agent.tool_use committed → agent.tool_result committed (bare: bwrap spawn / fs write)',
    figures,
  );

  // The environment image: its build (the first call of its first session waits for it), then cold starts.
  await dropCachedLayer();
  const packaged = await api.post<Created>('/v1/environments', {
    name: 'bench-packages',
    config: { type: 'cloud', packages: PACKAGES },
  });
  const firstCall = await roundTrips(
    1,
    () => ({ name: 'bash', input: { command: 'true' } }),
    packaged.body.id,
  );
  const build = (await api.get<EnvironmentBuild>(`/v1/environments/${packaged.body.id}`)).body.agentry_build;
  const buildMs = Date.parse(build.finished_at) - Date.parse(build.started_at);
  const cold: number[] = [];
  for (let i = 0; i < colds; i += 1)
    cold.push(
      ...(await roundTrips(1, () => ({ name: 'bash', input: { command: 'true' } }), packaged.body.id)),
    );
  const bareCold = await bareBubblewrapSpawns(colds);
  printFigures('Environment image (test package set) and cold start of a session sandbox on it (cached)', [
    { name: 'image build (agentry_build started → finished)', platform: buildMs, bare: buildMs, unit: 'ms' },
    {
      name: "first session's first bash (waits for the build)",
      platform: firstCall[0]!,
      bare: buildMs,
      unit: 'ms',
    },
    {
      name: 'cold start, new session bash true p50',
      platform: percentile(cold, 50),
      bare: percentile(bareCold, 50),
      unit: 'ms',
    },
    {
      name: 'cold start, new session bash true p99',
      platform: percentile(cold, 99),
      bare: percentile(bareCold, 99),
      unit: 'ms',
    },
  ]);
  console.log(`\nload average after: ${loadAverage()}`);
} finally {
  await platform.stop();
  await db.drop();
}
