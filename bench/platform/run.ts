/**
 * The platform against a bare baseline it measures itself, in the same run, on the same machine:
 * turn latency and throughput, input pickup, POST → SSE, fan-out, GET by id, per-turn cost as a
 * session grows, gateway memory per idle stream, CPU per turn per process (Postgres and the NATS server
 * included), and dataplane scale-out.
 * Needs built services (`pnpm build`) and Postgres, Redis and NATS on their standard ports.
 *
 *   npx tsx bench/platform/run.ts            full run (several minutes)
 *   npx tsx bench/platform/run.ts --quick    bounded run (about a minute)
 *   npx tsx bench/platform/run.ts --only=turns,streams,reads,length,memory,scale
 *   npx tsx bench/platform/run.ts --only=turns --cpu-prof   V8 profiles of every service in test-results/profiles
 *   npx tsx bench/platform/run.ts --only=turns --concurrency=32 --seconds=20   one throughput run of 32 sessions
 *   npx tsx bench/platform/run.ts --only=length --length-turns=300   per-turn cost over one compacting session
 *   npx tsx bench/platform/run.ts --quick --env=AGENTRY_DRAIN_CONCURRENCY=128   another setting for every service
 */
import { rerunWithSources } from '../rerun-with-sources.js';

rerunWithSources(import.meta.url);

const { ApiClient, createTestDatabase, launchPlatform, UNLIMITED_PRINCIPALS } =
  await import('@agentry/testing');
const { Bare } = await import('./bare.js');
const { PlatformDriver } = await import('./platform-driver.js');
const { bareThroughput, lengthFlatness, platformThroughput, simultaneousPickups, singleSessionLatency } =
  await import('./turns.js');
const { BarePostStream, bareFanOut, gatewayMemoryPerStream, platformFanOut } = await import('./streams.js');
const { loadAverage, percentile, printFigures } = await import('./stats.js');
type Figure = import('./stats.js').Figure;

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = args
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const wants = (section: string) => !only || only.includes(section);
// --cpu-prof: every service writes a V8 CPU profile to test-results/profiles when it stops.
const nodeArgs = args.includes('--cpu-prof') ? ['--cpu-prof', '--cpu-prof-dir=test-results/profiles'] : [];
const sizes = quick
  ? {
      latencyTurns: 60,
      seconds: 6,
      concurrency: [32, 200],
      fanOutClients: 500,
      fanOutRounds: 3,
      posts: 100,
      reads: 200,
      lengthTurns: 120,
      idleStreams: 2000,
    }
  : {
      latencyTurns: 200,
      seconds: 15,
      concurrency: [32, 200, 1000],
      fanOutClients: 2000,
      fanOutRounds: 5,
      posts: 300,
      reads: 600,
      lengthTurns: 500,
      idleStreams: 10_000,
    };

const lengthTurnsArg = args.find((a) => a.startsWith('--length-turns='));
if (lengthTurnsArg) sizes.lengthTurns = Number(lengthTurnsArg.slice('--length-turns='.length));
// --concurrency=32,200 and --seconds=20: a shorter throughput run, e.g. to compare CPU per turn between builds.
const concurrencyArg = args.find((a) => a.startsWith('--concurrency='));
if (concurrencyArg) sizes.concurrency = concurrencyArg.slice('--concurrency='.length).split(',').map(Number);
const secondsArg = args.find((a) => a.startsWith('--seconds='));
if (secondsArg) sizes.seconds = Number(secondsArg.slice('--seconds='.length));

// --env=NAME=value (repeatable): a setting for every service, to compare configurations in one session.
const envOverrides = Object.fromEntries(
  args
    .filter((a) => a.startsWith('--env='))
    .map((a): [string, string] => {
      const [name = '', ...value] = a.slice('--env='.length).split('=');
      return [name, value.join('=')];
    }),
);
const platformEnv = { ...UNLIMITED_PRINCIPALS, AGENTRY_LOG_LEVEL: 'warn', ...envOverrides };

const settings = Object.entries(envOverrides).map(([name, value]) => `${name}=${value}`);
console.log(
  `# Agentry platform bench (${quick ? 'quick' : 'full'}), load average before: ${loadAverage()}` +
    (settings.length > 0 ? `, settings: ${settings.join(' ')}` : ''),
);
const db = await createTestDatabase();
const bare = await Bare.start(db.url);

async function launch(dataplanes = 1) {
  const platform = await launchPlatform({
    databaseUrl: db.url,
    env: platformEnv,
    replicas: { dataplane: dataplanes },
    nodeArgs,
  });
  const api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
  const driver = new PlatformDriver(platform.gatewayUrl, api.authHeaders);
  return { platform, driver, ids: await driver.setup() };
}

const figures: Figure[] = [];
const notes: string[] = [];
const { platform, driver, ids } = await launch();
const pids = () => ({
  gateway: platform.service('gateway').pid,
  control: platform.service('control').pid,
  dataplane: platform.service('dataplane').pid,
  worker: platform.service('worker').pid,
  scheduler: platform.service('scheduler').pid,
});

try {
  if (wants('turns')) {
    const one = await driver.session(ids);
    await singleSessionLatency(one, bare, 10); // warm-up
    const single = await singleSessionLatency(one, bare, sizes.latencyTurns);
    one.close();
    figures.push({
      name: 'turn latency, 1 session, p50',
      platform: percentile(single.platform, 50),
      bare: percentile(single.bare, 50),
      unit: 'ms',
    });
    figures.push({
      name: 'turn latency, 1 session, p99',
      platform: percentile(single.platform, 99),
      bare: percentile(single.bare, 99),
      unit: 'ms',
    });
    for (const concurrency of sizes.concurrency) {
      const sessions = await driver.sessions(ids, concurrency);
      const result = await platformThroughput(sessions, sizes.seconds, pids());
      const burst = await simultaneousPickups(sessions);
      for (const s of sessions) s.close();
      const bareRun = await bareThroughput(bare, concurrency, sizes.seconds);
      figures.push({
        name: `throughput, ${concurrency} sessions`,
        platform: result.turnsPerSecond,
        bare: bareRun.turnsPerSecond,
        unit: 'turns/s',
      });
      figures.push({
        name: `pickup, ${concurrency} sessions, p99 / max`,
        platform: percentile(result.pickups, 99),
        bare: null,
        unit: 'ms',
      });
      notes.push(
        `${concurrency} sessions: ${result.turns} turns, pickup p50 ${percentile(result.pickups, 50).toFixed(1)} ms, p99 ${percentile(result.pickups, 99).toFixed(1)} ms, ` +
          `max ${Math.max(...result.pickups).toFixed(1)} ms, turns waiting > 250 ms: ${result.pickups.filter((p) => p > 250).length}, errors: ${result.errors.length}` +
          (result.errors[0] ? ` (first: ${result.errors[0]})` : ''),
      );
      notes.push(
        `${concurrency} sessions posting at the same instant (once, after the run): pickup p50 ${percentile(burst, 50).toFixed(1)} ms, ` +
          `max ${Math.max(...burst).toFixed(1)} ms, over 250 ms: ${burst.filter((p) => p > 250).length}`,
      );
      notes.push(
        `${concurrency} sessions, pickup by the event log's timestamps: p50 ${percentile(result.serverPickups, 50).toFixed(1)} ms, ` +
          `p99 ${percentile(result.serverPickups, 99).toFixed(1)} ms, max ${Math.max(...result.serverPickups).toFixed(1)} ms, ` +
          `over 250 ms: ${result.serverPickups.filter((p) => p > 250).length}`,
      );
      notes.push(
        `${concurrency} sessions, CPU per turn: ` +
          Object.entries(result.cpuPerTurnMs)
            .map(([name, ms]) => `${name} ${ms.toFixed(2)} ms`)
            .join(', ') +
          `, total ${Object.values(result.cpuPerTurnMs)
            .reduce((a, b) => a + b, 0)
            .toFixed(2)} ms`,
      );
      const servers = (cpu: Record<string, number>) =>
        `Postgres ${cpu.postgres!.toFixed(2)} ms, NATS server ${cpu.nats!.toFixed(2)} ms`;
      notes.push(
        `${concurrency} sessions, shared servers' CPU per turn: ${servers(result.serversCpuPerTurnMs)}; ` +
          `per bare turn: ${servers(bareRun.serversCpuPerTurnMs)}`,
      );
      notes.push(
        `${concurrency} sessions, write system calls per turn: ` +
          Object.entries(result.writesPerTurn)
            .map(([name, count]) => `${name} ${count.toFixed(1)}`)
            .join(', '),
      );
    }
  }

  if (wants('streams')) {
    const session = await driver.session(ids);
    const barePoster = await BarePostStream.open(bare);
    const posts: number[] = [];
    const barePosts: number[] = [];
    // Interleaved, in alternating order: a drift of the machine's speed during the run moves both series
    // alike instead of the difference between them. No pause between: an idle process wakes up slowly.
    for (let i = 0; i < sizes.posts; i += 1) {
      if (i % 2 === 0) posts.push((await session.turn()).postToStream);
      barePosts.push(await barePoster.post());
      if (i % 2 === 1) posts.push((await session.turn()).postToStream);
    }
    session.close();
    barePoster.close();
    figures.push({
      name: 'POST event → on SSE, p50',
      platform: percentile(posts, 50),
      bare: percentile(barePosts, 50),
      unit: 'ms',
      compare: 'difference',
    });
    figures.push({
      name: 'POST event → on SSE, p99',
      platform: percentile(posts, 99),
      bare: percentile(barePosts, 99),
      unit: 'ms',
      compare: 'difference',
    });
    const target = await driver.session(ids);
    target.close();
    const fan = await platformFanOut(driver, target.id, sizes.fanOutClients, sizes.fanOutRounds);
    const bareFan = await bareFanOut(bare, sizes.fanOutClients, sizes.fanOutRounds);
    figures.push({
      name: `fan-out to ${sizes.fanOutClients} clients, p50`,
      platform: percentile(fan, 50),
      bare: percentile(bareFan, 50),
      unit: 'ms',
    });
    figures.push({
      name: `fan-out to ${sizes.fanOutClients} clients, p99`,
      platform: percentile(fan, 99),
      bare: percentile(bareFan, 99),
      unit: 'ms',
    });
  }

  if (wants('reads')) {
    const headers = driver.headers;
    const p: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < sizes.reads; i += 1) {
      let start = performance.now();
      const r1 = await fetch(`${driver.baseUrl}/v1/agents/${ids.agentId}`, { headers });
      await r1.arrayBuffer();
      p.push(performance.now() - start);
      start = performance.now();
      const r2 = await fetch(`${bare.url}/agents/${ids.agentId}`);
      await r2.arrayBuffer();
      b.push(performance.now() - start);
    }
    figures.push({
      name: 'GET /v1/agents/{id}, p50',
      platform: percentile(p.slice(20), 50),
      bare: percentile(b.slice(20), 50),
      unit: 'ms',
    });
  }

  if (wants('length')) {
    // The summarisation call answers with a short summary, as a real model does within its summary cap;
    // every other message is echoed.
    const summarising = {
      id: 'scripted',
      script: { turns: [{ match: '^Summarise these', reply: ['The user sent numbered messages.'] }] },
    };
    const loadBefore = loadAverage();
    const flat = await lengthFlatness(driver, await driver.setup(summarising), sizes.lengthTurns);
    notes.push(
      `session length: turns 1–50 mean ${flat.first.toFixed(1)} ms, last 50 mean ${flat.last.toFixed(1)} ms, ratio ${flat.ratio.toFixed(2)} (${sizes.lengthTurns} turns, ${flat.compactions} compactions; load average ${loadBefore} before, ${loadAverage()} after)`,
    );
  }
} finally {
  await platform.stop();
}

// On a platform of its own: garbage left by the phases before would be collected while the streams
// open and hide their cost.
if (wants('memory')) {
  const run = await launch();
  try {
    const sessions = await run.driver.sessions(run.ids, 50);
    for (const s of sessions) s.close();
    const perStream = await gatewayMemoryPerStream(
      run.driver,
      sessions.map((s) => s.id),
      sizes.idleStreams,
      run.platform.service('gateway').pid!,
    );
    notes.push(
      `gateway RSS per idle SSE connection at ${sizes.idleStreams}: ${(perStream / 1024).toFixed(1)} KB`,
    );
  } finally {
    await run.platform.stop();
  }
}

if (wants('scale')) {
  for (const replicas of [1, 2, 3]) {
    const run = await launch(replicas);
    try {
      const sessions = await run.driver.sessions(run.ids, 32);
      const result = await platformThroughput(sessions, sizes.seconds, {});
      for (const s of sessions) s.close();
      notes.push(
        `scale-out: ${replicas} dataplane replica(s), 32 sessions: ${result.turnsPerSecond.toFixed(1)} turns/s, errors ${result.errors.length}`,
      );
    } finally {
      await run.platform.stop();
    }
  }
}

printFigures('Figures', figures);
console.log('');
for (const note of notes) console.log(`- ${note}`);
console.log(`\nload average after: ${loadAverage()}`);
await bare.stop();
await db.drop();
