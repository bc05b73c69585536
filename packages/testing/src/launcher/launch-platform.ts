import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import getPort from 'get-port';
import { registerRunDir, registerSecrets } from '../secrets/secret-registry.js';
import { repoRoot } from './repo-root.js';
import { SERVICES, ServiceProcess, type ServiceName } from './service-process.js';

export interface LaunchOptions {
  /** Connection string of an already-migrated database. */
  databaseUrl: string;
  redisUrl?: string;
  natsUrl?: string;
  /** Extra environment for every service (e.g. AGENTRY_ADMIN_PASSWORD). */
  env?: Record<string, string>;
  readyTimeoutMs?: number;
  /** More than one process of a service (e.g. `{ dataplane: 3 }`); each is named `<service>#<n>` after the first. */
  replicas?: Partial<Record<ServiceName, number>>;
  /** Extra environment of one replica (index 0 is the first), e.g. a worker's own AGENTRY_WORKDIR_ROOT. */
  replicaEnv?: (name: ServiceName, index: number) => Record<string, string>;
  /**
   * The tree whose built services run (`apps/<name>/dist` under it), e.g. a previous release's build for an
   * upgrade test; default the repository itself. Logs and work directories stay under the repository.
   */
  buildRoot?: string;
  /** Extra Node flags for every service process (e.g. `--cpu-prof`). */
  nodeArgs?: string[];
}

export interface RunningPlatform {
  gatewayUrl: string;
  /** Unique per launch: Redis keys and NATS subjects of this platform carry it. */
  runId: string;
  workdirRoot: string;
  env: Record<string, string>;
  service(name: ServiceName): ServiceProcess;
  /** Every process of a service, the first one included. */
  replicasOf(name: ServiceName): ServiceProcess[];
  stop(): Promise<void>;
}

/** Starts the five services as separate processes on free ports, isolated from any other run. */
export async function launchPlatform(options: LaunchOptions): Promise<RunningPlatform> {
  const root = repoRoot();
  const runId = `r${randomBytes(5).toString('hex')}`;
  const runDir = join(root, 'test-results', 'runs', runId);
  const workdirRoot = join(runDir, 'workdirs');
  mkdirSync(workdirRoot, { recursive: true });
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: options.redisUrl ?? 'redis://127.0.0.1:6379',
    NATS_URL: options.natsUrl ?? 'nats://127.0.0.1:4222',
    AGENTRY_ENV: runId,
    AGENTRY_SUBJECT_PREFIX: `${runId}.`,
    AGENTRY_LOG_LEVEL: 'info',
    AGENTRY_WORKDIR_ROOT: workdirRoot,
    AGENTRY_JWT_SECRET: randomBytes(24).toString('hex'),
    AGENTRY_MASTER_KEY: randomBytes(32).toString('base64'),
    ...options.env,
  };
  // The signing and sealing keys, and any secret a test hands the services, must never reach a log.
  registerRunDir(runDir);
  registerSecrets('launch env', secretSettings(env));
  const processes = new Map<ServiceName, ServiceProcess[]>();
  const baseEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env };
  for (const name of SERVICES) {
    const count = options.replicas?.[name] ?? 1;
    const replicas: ServiceProcess[] = [];
    for (let index = 0; index < count; index += 1) {
      const port = await getPort({ host: '127.0.0.1' });
      const file = index === 0 ? `${name}.log` : `${name}-${index + 1}.log`;
      const replicaEnv = { ...baseEnv, ...options.replicaEnv?.(name, index) };
      replicas.push(
        new ServiceProcess(
          name,
          port,
          options.buildRoot ?? root,
          replicaEnv,
          join(runDir, file),
          options.nodeArgs ?? [],
        ),
      );
    }
    processes.set(name, replicas);
  }
  const all = [...processes.values()].flat();
  try {
    for (const service of all) service.start();
    await Promise.all(all.map((s) => s.waitReady(options.readyTimeoutMs ?? 120_000)));
  } catch (error) {
    await Promise.all(all.map((s) => s.stop()));
    throw error;
  }
  const gateway = processes.get('gateway')![0]!;
  return {
    get gatewayUrl() {
      return gateway.url;
    },
    runId,
    workdirRoot,
    env,
    service: (name) => processes.get(name)![0]!,
    replicasOf: (name) => [...processes.get(name)!],
    stop: async () => {
      await Promise.all(all.map((s) => s.stop()));
    },
  };
}

const SECRET_SETTING = /SECRET|PASSWORD|TOKEN|_KEY$|_KEYS$/;

function secretSettings(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => SECRET_SETTING.test(name)));
}
