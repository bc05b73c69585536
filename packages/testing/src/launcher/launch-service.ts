import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import getPort from 'get-port';
import { repoRoot } from './repo-root.js';
import { ServiceProcess, type ServiceName } from './service-process.js';

/**
 * One built service as its own process, ready, for a test that runs a neighbouring service in-process and
 * needs the owner of some tables to answer over NATS. `env` carries the database, NATS prefix and the rest.
 */
export async function launchService(
  name: ServiceName,
  env: Record<string, string>,
  readyTimeoutMs = 60_000,
): Promise<ServiceProcess> {
  const root = repoRoot();
  const runDir = join(root, 'test-results', 'runs', `${name}-${randomBytes(5).toString('hex')}`);
  mkdirSync(runDir, { recursive: true });
  const port = await getPort({ host: '127.0.0.1' });
  const baseEnv = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    NODE_ENV: 'test',
    ...env,
  };
  const service = new ServiceProcess(name, port, root, baseEnv, join(runDir, `${name}.log`));
  service.start();
  try {
    await service.waitReady(readyTimeoutMs);
  } catch (error) {
    await service.stop();
    throw error;
  }
  return service;
}
