/**
 * Round trips per scripted turn: the Postgres statements and Redis commands each service sends for one
 * turn of one session, counted by a preload (`count-round-trips.cjs`) in every service process, next to
 * the bare turn's statements counted the same way in this process. Counts do not depend on the machine's
 * load, so this is the figure to watch when changing the hot path.
 *
 *   pnpm build && npx tsx bench/platform/round-trips.ts [--turns=100] [--top=15]
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchSession } from './platform-driver.js';
import { rerunWithSources } from '../rerun-with-sources.js';

rerunWithSources(import.meta.url);

interface Counts {
  pg: number;
  redis: number;
  statements: Record<string, number>;
  milliseconds: Record<string, number>;
}

const args = process.argv.slice(2);
const option = (name: string, fallback: number) =>
  Number(args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const turns = option('turns', 100);
const top = option('top', 15);
const WARM_UP_TURNS = 20;

const countsDir = mkdtempSync(join(tmpdir(), 'agentry-round-trips-'));
const preload = fileURLToPath(new URL('./count-round-trips.cjs', import.meta.url));
// The bare baseline runs in this process: count its statements with the same preload.
process.env.AGENTRY_ROUND_TRIPS_DIR = countsDir;
createRequire(import.meta.url)(preload);

const { ApiClient, createTestDatabase, launchPlatform, UNLIMITED_PRINCIPALS } =
  await import('@agentry/testing');
const { Bare } = await import('./bare.js');
const { PlatformDriver } = await import('./platform-driver.js');
const { loadAverage } = await import('./stats.js');

const db = await createTestDatabase();
const bare = await Bare.start(db.url);
const platform = await launchPlatform({
  databaseUrl: db.url,
  env: { ...UNLIMITED_PRINCIPALS, AGENTRY_LOG_LEVEL: 'warn', AGENTRY_ROUND_TRIPS_DIR: countsDir },
  nodeArgs: ['--require', preload],
});
const services = ['gateway', 'control', 'dataplane', 'worker', 'scheduler'] as const;

/** Asks every process to write its counts, then reads them, keyed by service. */
async function snapshot(): Promise<Map<string, Counts>> {
  rmSync(countsDir, { recursive: true, force: true });
  const pids = new Map<number, string>([[process.pid, 'bare']]);
  for (const name of services) pids.set(platform.service(name).pid!, name);
  for (const pid of pids.keys()) process.kill(pid, 'SIGWINCH');
  const expected = pids.size;
  for (let waited = 0; waited < 5_000; waited += 50) {
    if (safeList(countsDir).length >= expected) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const out = new Map<string, Counts>();
  for (const file of safeList(countsDir)) {
    const pid = Number(file.replace(/^.*-(\d+)\.json$/, '$1'));
    out.set(pids.get(pid) ?? file, JSON.parse(readFileSync(join(countsDir, file), 'utf8')) as Counts);
  }
  return out;
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function diff(after: Counts | undefined, before: Counts | undefined, per: number) {
  const statements: Record<string, number> = {};
  const milliseconds: Record<string, number> = {};
  for (const [key, value] of Object.entries(after?.statements ?? {})) {
    const delta = value - (before?.statements[key] ?? 0);
    if (delta <= 0) continue;
    statements[key] = delta / per;
    const spent = (after?.milliseconds[key] ?? 0) - (before?.milliseconds[key] ?? 0);
    if (spent > 0) milliseconds[key] = spent / delta;
  }
  return {
    pg: ((after?.pg ?? 0) - (before?.pg ?? 0)) / per,
    redis: ((after?.redis ?? 0) - (before?.redis ?? 0)) / per,
    statements,
    milliseconds,
  };
}

let session: BenchSession | undefined;
try {
  console.log(
    `# Round trips per scripted turn (${turns} turns of one session), load average ${loadAverage()}`,
  );
  const api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
  const driver = new PlatformDriver(platform.gatewayUrl, api.authHeaders);
  session = await driver.session(await driver.setup());
  const bareSession = await bare.createSession();
  for (let i = 0; i < WARM_UP_TURNS; i += 1) {
    await session.turn();
    await bare.turn(bareSession);
  }
  console.log(`warmed up (${WARM_UP_TURNS} turns)`);
  const before = await snapshot();
  console.log('counting');
  for (let i = 0; i < turns; i += 1) {
    await session.turn();
    await bare.turn(bareSession);
  }
  const after = await snapshot();

  console.log('\n| process | Postgres statements / turn | Redis commands / turn | total |');
  console.log('|---|---|---|---|');
  const perProcess = [...services, 'bare'].map((name) => ({
    name,
    ...diff(after.get(name), before.get(name), turns),
  }));
  for (const p of perProcess) {
    console.log(
      `| ${p.name} | ${p.pg.toFixed(1)} | ${p.redis.toFixed(1)} | ${(p.pg + p.redis).toFixed(1)} |`,
    );
  }
  const platformTotal = perProcess
    .filter((p) => p.name !== 'bare')
    .reduce((sum, p) => sum + p.pg + p.redis, 0);
  const bareTotal = perProcess.find((p) => p.name === 'bare')!;
  console.log(
    `\nplatform ${platformTotal.toFixed(1)} round trips per turn, bare ${(bareTotal.pg + bareTotal.redis).toFixed(1)}: ` +
      `${(platformTotal / Math.max(1, bareTotal.pg + bareTotal.redis)).toFixed(2)}×`,
  );
  for (const p of perProcess) {
    const sorted = Object.entries(p.statements).sort((a, b) => b[1] - a[1]);
    if (sorted.length === 0) continue;
    console.log(`\n${p.name}, most frequent per turn (count, then ms from sending to answer, mean):`);
    for (const [key, value] of sorted.slice(0, top)) {
      const ms = p.milliseconds[key];
      console.log(
        `  ${value.toFixed(2).padStart(6)}  ${ms === undefined ? '   —  ' : ms.toFixed(3).padStart(6)}  ${key}`,
      );
    }
  }
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  session?.close();
  await platform.stop();
  await bare.stop();
  await db.drop();
  rmSync(countsDir, { recursive: true, force: true });
}
