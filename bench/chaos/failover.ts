/**
 * Failover time of the Brain: from `kill -9` of the dataplane replica running a turn to the turn
 * continuing on its peer (the peer's model call of the same turn reaching the client's stream),
 * p50/p99 over N kills. Two dataplane replicas; the killed one is restarted before the next kill.
 * Needs built services (`pnpm build`) and Postgres, Redis and NATS on their standard ports.
 *
 *   npx tsx bench/chaos/failover.ts                   20 kills, the default settings (lease TTL 10 s)
 *   npx tsx bench/chaos/failover.ts --kills=50 --lease-ttl-ms=2000
 */
import { rerunWithSources } from '../rerun-with-sources.js';

rerunWithSources(import.meta.url);

const {
  ApiClient,
  ChaosSchedule,
  createTestDatabase,
  holdFault,
  launchPlatform,
  ResumingSseClient,
  UNLIMITED_PRINCIPALS,
} = await import('@agentry/testing');
const { loadAverage, percentile } = await import('../platform/stats.js');

/** What a create answers with that the bench reads: the new resource's id. */
interface Created {
  id: string;
}

const flag = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const kills = flag('kills', 20);
/** When each kill lands: replayed from the printed seed with CHAOS_SEED. */
const schedule = new ChaosSchedule('failover bench');
// The platform's own default unless asked: what an installation gets without tuning.
const leaseTtlMs = flag('lease-ttl-ms', 10_000);

const db = await createTestDatabase();
const platform = await launchPlatform({
  databaseUrl: db.url,
  replicas: { dataplane: 2 },
  env: { ...UNLIMITED_PRINCIPALS, AGENTRY_LEASE_TTL_MS: String(leaseTtlMs) },
  readyTimeoutMs: 600_000,
});
try {
  const api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
  const script = { turns: [{ reply: [{ delayMs: 2 * leaseTtlMs, text: 'answered' }] }] };
  const agent = await api.post<Created>('/v1/agents', {
    name: 'failover',
    model: { id: 'scripted', script },
  });
  const environment = await api.post<Created>('/v1/environments', {
    name: 'failover',
    config: { type: 'local' },
  });
  const dataplanes = platform.replicasOf('dataplane');
  const samples: number[] = [];
  console.log(`failover bench: ${kills} kills, lease TTL ${leaseTtlMs} ms, load average ${loadAverage()}`);

  for (let k = 0; k < kills; k += 1) {
    await Promise.all(dataplanes.map((p) => p.waitReady(600_000)));
    const sessionId = (
      await api.post<Created>('/v1/sessions', { agent: agent.body.id, environment_id: environment.body.id })
    ).body.id;
    const stream = new ResumingSseClient(
      `${platform.gatewayUrl}/v1/sessions/${sessionId}/events/stream`,
      api.authHeaders,
      { after: 0 },
    );
    await api.post(`/v1/sessions/${sessionId}/events`, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'go' }] }],
    });
    const starts = () => stream.frames.filter((f) => f.event === 'span.model_request_start');
    await stream.waitFor(() => starts().length === 1, 60_000, 'model call');
    // Anywhere in the holder's renewal cycle (and its liveness beat's).
    await holdFault(schedule.below(Math.min(leaseTtlMs, 5_000)));
    const row = await db.prisma.session.findUniqueOrThrow({
      where: { id: sessionId },
      select: { leaseOwner: true },
    });
    const holder = dataplanes.find((p) => p.running && p.pid === Number(row.leaseOwner?.split(':')[1]));
    if (!holder) {
      console.log(`kill ${k + 1}: no live lease holder found, skipped`);
      await stream.close();
      continue;
    }
    const killedAt = Date.now();
    await holder.kill('SIGKILL');
    holder.start();
    await stream.waitFor(() => starts().length === 2, 60_000, 'the turn continuing on the peer');
    const sample = starts()[1]!.at - killedAt;
    samples.push(sample);
    await stream.waitFor((f) => f.some((x) => x.event === 'session.status_idle'), 60_000, 'turn end');
    await stream.close();
    console.log(`kill ${k + 1}: continued on the peer after ${sample} ms`);
  }
  console.log(
    `\nfailover over ${samples.length} kills: p50 ${percentile(samples, 50)} ms, p99 ${percentile(samples, 99)} ms, ` +
      `min ${Math.min(...samples)} ms, max ${Math.max(...samples)} ms (lease TTL ${leaseTtlMs} ms; load average ${loadAverage()})`,
  );
} finally {
  await platform.stop();
  await db.drop();
}
