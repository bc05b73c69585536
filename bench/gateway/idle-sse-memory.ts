/**
 * Gateway RSS per idle SSE connection: opens N streams on one session from raw sockets, waits for each
 * stream to open, and reads the gateway's VmRSS (Linux /proc) before and after. Needs built services.
 * Run: npx tsx bench/gateway/idle-sse-memory.ts [N]   (default 2000; bounded: ~1 min)
 */
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { rerunWithSources } from '../rerun-with-sources.js';

rerunWithSources(import.meta.url);

const { ApiClient, createTestDatabase, launchPlatform, UNLIMITED_PRINCIPALS } =
  await import('@agentry/testing');

/** What a create answers with that the bench reads: the new resource's id. */
interface Created {
  id: string;
}

const N = Number(process.argv[2] ?? 2000);
const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const db = await createTestDatabase();
const platform = await launchPlatform({
  databaseUrl: db.url,
  env: { ...UNLIMITED_PRINCIPALS, AGENTRY_LOG_LEVEL: 'warn' },
});
try {
  const api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
  const agent = (await api.post<Created>('/v1/agents', { name: 'idle', model: 'scripted' })).body.id;
  const environment = (
    await api.post<Created>('/v1/environments', { name: 'local', config: { type: 'local' } })
  ).body.id;
  const session = (await api.post<Created>('/v1/sessions', { agent, environment_id: environment })).body.id;
  const { port } = new URL(platform.gatewayUrl);
  const pid = Number(/pid=(\d+)/.exec(execSync(`ss -ltnpH 'sport = :${port}'`).toString())![1]);
  const request = `GET /v1/sessions/${session}/events/stream HTTP/1.1\r\nhost: x\r\nauthorization: ${api.authHeaders.authorization}\r\n\r\n`;
  const open = () =>
    new Promise<Socket>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write(request));
      socket.once('data', (chunk) =>
        chunk.toString().startsWith('HTTP/1.1 200') ? resolve(socket) : reject(new Error(chunk.toString())),
      );
      socket.once('error', reject);
    });
  const openMany = async (count: number) => {
    const sockets: Socket[] = [];
    for (let i = 0; i < count; i += 100)
      sockets.push(...(await Promise.all(Array.from({ length: Math.min(100, count - i) }, open))));
    return sockets;
  };
  // Warm up code paths and pools, then let the heap settle.
  for (const s of await openMany(200)) s.destroy();
  await sleep(3000);
  const before = rssKb(pid);
  const sockets = await openMany(N);
  await sleep(5000);
  const after = rssKb(pid);
  console.log(
    `gateway RSS: ${before} KB → ${after} KB with ${N} idle SSE connections: ${((after - before) / N).toFixed(1)} KB per connection`,
  );
  for (const s of sockets) s.destroy();
} finally {
  await platform.stop();
  await db.drop();
}
