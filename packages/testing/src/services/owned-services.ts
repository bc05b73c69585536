import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import getPort from 'get-port';
import { DatabaseAdmin } from '@agentry/db';
import { pollUntil } from '../time/poll-until.js';
import { OwnedProcess } from './owned-process.js';

const NATS_SERVER = '/usr/sbin/nats-server';
const PG_BIN = '/usr/lib/postgresql/15/bin';

/** A NATS server of the test's own, on a free port. */
export async function startOwnedNats(logDir: string): Promise<{ url: string; server: OwnedProcess }> {
  const port = await getPort({ host: '127.0.0.1' });
  const server = new OwnedProcess({
    command: NATS_SERVER,
    args: ['-a', '127.0.0.1', '-p', String(port)],
    port,
    logFile: join(logDir, 'nats.log'),
  });
  await server.start();
  return { url: `nats://127.0.0.1:${port}`, server };
}

/** A Redis of the test's own, without persistence: a restart loses every key, as in production without AOF. */
export async function startOwnedRedis(logDir: string): Promise<{ url: string; server: OwnedProcess }> {
  const port = await getPort({ host: '127.0.0.1' });
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    logDir,
  ];
  const server = new OwnedProcess({
    command: 'redis-server',
    args,
    port,
    logFile: join(logDir, 'redis.log'),
  });
  await server.start();
  return { url: `redis://127.0.0.1:${port}`, server };
}

export interface OwnedPostgres {
  /** URL of the `postgres` database of this cluster (a base URL for createTestDatabase). */
  url: string;
  server: OwnedProcess;
  /** Starts the cluster again and waits until it accepts queries. */
  start(): Promise<void>;
  /** Stops the cluster and removes its data directory. */
  destroy(): Promise<void>;
}

/**
 * A throwaway Postgres cluster in a temporary directory, on a free port, run as the `postgres` user
 * when the test runs as root (Postgres refuses root).
 */
export async function startOwnedPostgres(logDir: string): Promise<OwnedPostgres> {
  const port = await getPort({ host: '127.0.0.1' });
  const dataDir = mkdtempSync(join(tmpdir(), 'agentry-pg-'));
  const user = process.getuid?.() === 0 ? postgresUser() : undefined;
  if (user) chownSync(dataDir, user.uid, user.gid);
  execFileSync(
    join(PG_BIN, 'initdb'),
    ['-D', join(dataDir, 'data'), '-U', 'postgres', '-A', 'trust', '--no-sync'],
    {
      stdio: 'ignore',
      ...(user ?? {}),
    },
  );
  const args = [
    '-D',
    join(dataDir, 'data'),
    '-p',
    String(port),
    '-k',
    dataDir,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'fsync=off',
  ];
  const server = new OwnedProcess({
    command: join(PG_BIN, 'postgres'),
    args,
    port,
    logFile: join(logDir, 'postgres.log'),
    ...(user ? { user } : {}),
  });
  const url = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  const start = async () => {
    await server.start();
    await waitForQueries(url);
  };
  await start();
  return {
    url,
    server,
    start,
    destroy: async () => {
      await server.stop('SIGINT');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function postgresUser(): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  return { uid, gid };
}

async function waitForQueries(url: string, timeoutMs = 20_000): Promise<void> {
  await pollUntil(
    `Postgres at ${url} to answer queries`,
    async () => {
      const admin = await DatabaseAdmin.connect(url);
      try {
        await admin.databaseExists('postgres');
        return true;
      } finally {
        await admin.close();
      }
    },
    timeoutMs,
    { retryErrors: true },
  );
}
