/**
 * Gateway → control round trip, against a bare Fastify route doing the same Postgres work in one process.
 *   read   GET  /v1/agents/{id}   (gateway → NATS → control → Postgres: agent row + head version row)
 *   write  POST /v1/agents        (gateway → NATS → control → Postgres: one transaction, two inserts)
 * Both sides are measured in alternating rounds in the same run; figures are p50/p99 latency per request
 * from a sequential client and the ratio platform ÷ bare. Needs built services (`pnpm build`).
 * Run: npx tsx bench/gateway/round-trip.ts   (bounded: ~40 s)
 *      npx tsx bench/gateway/round-trip.ts --cpu-prof --rounds=20   V8 profiles of every service in
 *                                                                  test-results/profiles
 */
import { rerunWithSources } from '../rerun-with-sources.js';

rerunWithSources(import.meta.url);

const { ApiClient, createTestDatabase, launchPlatform, UNLIMITED_PRINCIPALS } =
  await import('@agentry/testing');
const { default: Fastify } = await import('fastify');
const { default: pg } = await import('pg');
const { randomUUID } = await import('node:crypto');

/** What a create answers with that the bench reads: the new resource's id. */
interface Created {
  id: string;
}

/** A row as `SELECT *` returns it; an agent's names the version row to read. */
type Row = Record<string, unknown>;
type AgentRow = Row & { head_version: number };

const args = process.argv.slice(2);
const ROUNDS = Number(args.find((a) => a.startsWith('--rounds='))?.slice('--rounds='.length) ?? 4);
const READS_PER_ROUND = 150;
const WRITES_PER_ROUND = 60;

const db = await createTestDatabase();
const platform = await launchPlatform({
  databaseUrl: db.url,
  env: { ...UNLIMITED_PRINCIPALS, AGENTRY_LOG_LEVEL: 'warn' },
  nodeArgs: args.includes('--cpu-prof') ? ['--cpu-prof', '--cpu-prof-dir=test-results/profiles'] : [],
});
const api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
const seed = await api.post<Created>('/v1/agents', { name: 'bench', model: 'scripted' });
const agentId = seed.body.id;
const tenant = await db.prisma.agent.findUniqueOrThrow({ where: { id: agentId } });

// The bare baseline: same queries, same database, no gateway, no NATS, no second process.
const pool = new pg.Pool({ connectionString: db.url, max: 5 });
const bare = Fastify();
bare.get('/agents/:id', async (request) => {
  const { id } = request.params as { id: string };
  const agent = await pool.query<AgentRow>(
    'SELECT * FROM agents WHERE id = $1 AND tenant_id = $2 AND namespace_id = $3',
    [id, tenant.tenantId, tenant.namespaceId],
  );
  const version = await pool.query<Row>('SELECT * FROM agent_versions WHERE agent_id = $1 AND version = $2', [
    id,
    agent.rows[0]!.head_version,
  ]);
  return { ...agent.rows[0], version: version.rows[0] };
});
bare.post('/agents', async () => {
  const client = await pool.connect();
  try {
    const id = `agent_${randomUUID().replace(/-/g, '')}`;
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO agents (id, tenant_id, namespace_id, name, head_version, metadata, updated_at) VALUES ($1, $2, $3, 'bench', 1, '{}', now())`,
      [id, tenant.tenantId, tenant.namespaceId],
    );
    await client.query(
      `INSERT INTO agent_versions (id, tenant_id, agent_id, version, name, model) VALUES ($1, $2, $3, 1, 'bench', '{"id":"scripted"}')`,
      [`${id}@1`, tenant.tenantId, id],
    );
    await client.query('COMMIT');
    return { id };
  } finally {
    client.release();
  }
});
const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

async function time(samples: number[], run: () => Promise<Response>): Promise<void> {
  const start = performance.now();
  const response = await run();
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`request failed: ${response.status}`);
  samples.push(performance.now() - start);
}

const auth = { ...api.authHeaders, 'content-type': 'application/json' };
const samples = {
  platformRead: [] as number[],
  bareRead: [] as number[],
  platformWrite: [] as number[],
  bareWrite: [] as number[],
};
for (let round = 0; round < ROUNDS; round += 1) {
  for (let i = 0; i < READS_PER_ROUND; i += 1)
    await time(samples.platformRead, () =>
      fetch(`${platform.gatewayUrl}/v1/agents/${agentId}`, { headers: auth }),
    );
  for (let i = 0; i < READS_PER_ROUND; i += 1)
    await time(samples.bareRead, () => fetch(`${bareUrl}/agents/${agentId}`));
  const body = JSON.stringify({ name: 'bench', model: 'scripted' });
  for (let i = 0; i < WRITES_PER_ROUND; i += 1)
    await time(samples.platformWrite, () =>
      fetch(`${platform.gatewayUrl}/v1/agents`, { method: 'POST', headers: auth, body }),
    );
  for (let i = 0; i < WRITES_PER_ROUND; i += 1)
    await time(samples.bareWrite, () => fetch(`${bareUrl}/agents`, { method: 'POST' }));
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

// The first round warms JIT and connection pools on both sides: it is not counted.
const warm = (values: number[], perRound: number) => values.slice(perRound);
const rows = [
  ['read ', warm(samples.platformRead, READS_PER_ROUND), warm(samples.bareRead, READS_PER_ROUND)],
  ['write', warm(samples.platformWrite, WRITES_PER_ROUND), warm(samples.bareWrite, WRITES_PER_ROUND)],
] as const;
console.log(
  `gateway → control round trip vs bare Fastify + Postgres (${ROUNDS - 1} measured rounds, sequential client)`,
);
console.log('op     platform p50   p99   | bare p50   p99   | ratio p50  p99');
for (const [name, platformSamples, bareSamples] of rows) {
  const [pp50, pp99, bp50, bp99] = [
    percentile(platformSamples, 50),
    percentile(platformSamples, 99),
    percentile(bareSamples, 50),
    percentile(bareSamples, 99),
  ];
  console.log(
    `${name}  ${pp50.toFixed(2).padStart(8)} ms ${pp99.toFixed(2).padStart(6)} | ${bp50.toFixed(2).padStart(6)} ms ${bp99.toFixed(2).padStart(6)} | ${(pp50 / bp50).toFixed(2).padStart(6)}x ${(pp99 / bp99).toFixed(2).padStart(5)}x`,
  );
}

await bare.close();
await pool.end();
await platform.stop();
await db.drop();
