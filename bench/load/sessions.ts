/**
 * Many sessions on the scripted model, each with an SSE client that is cut at random and resumes with
 * `Last-Event-ID`: every client must see every event of its session once, in order, and no session may
 * get stuck. Prints turns/s, input pickup p50/p99, reconnects, duplicates and missing events.
 * Needs built services (`pnpm build`) and Postgres, Redis and NATS on their standard ports.
 *
 *   npx tsx bench/load/sessions.ts                                  500 sessions × 20 turns
 *   npx tsx bench/load/sessions.ts --sessions=50 --turns=5 --drop=0.5
 */
import { rerunWithSources } from '../rerun-with-sources.js';

rerunWithSources(import.meta.url);

const { ApiClient, createTestDatabase, describeLoad, launchPlatform, runResumingLoad, UNLIMITED_PRINCIPALS } =
  await import('@agentry/testing');
const { loadAverage } = await import('../platform/stats.js');

const flag = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const sessions = flag('sessions', 500);
const turnsPerSession = flag('turns', 20);
const dropChance = flag('drop', 0.3);

const db = await createTestDatabase();
const platform = await launchPlatform({
  databaseUrl: db.url,
  readyTimeoutMs: 600_000,
  env: { ...UNLIMITED_PRINCIPALS },
});
let failed = false;
try {
  const api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
  console.log(
    `load bench: ${sessions} sessions × ${turnsPerSession} turns, drop chance ${dropChance} per turn, load average ${loadAverage()}`,
  );
  const result = await runResumingLoad({
    api,
    gatewayUrl: platform.gatewayUrl,
    sessions,
    turnsPerSession,
    dropChance,
    turnTimeoutMs: 300_000,
    lastSeq: async (sessionId) =>
      Number(
        (await db.prisma.sessionEvent.aggregate({ where: { sessionId }, _max: { seq: true } }))._max.seq ?? 0,
      ),
  });
  console.log(describeLoad(result));
  console.log(`load average after: ${loadAverage()}`);
  for (const why of result.stuck.slice(0, 10)) console.log(`stuck: ${why}`);
  failed = result.duplicates + result.missing + result.outOfOrder + result.stuck.length > 0;
} finally {
  await platform.stop();
  await db.drop();
}
process.exit(failed ? 1 : 0);
