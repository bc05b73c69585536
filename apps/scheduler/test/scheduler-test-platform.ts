import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import type { INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  createLogger,
  createRedis,
  PrefixedClientNats,
  PrefixedServerNats,
  RpcClient,
} from '@agentry/platform';
import {
  createTestDatabase,
  deleteRedisKeys,
  repoRoot,
  ServiceProcess,
  type TestDatabase,
} from '@agentry/testing';
import { ControlSubjects, type Actor } from '@agentry/contracts';
import { AppModule } from '../src/app.module.js';
import { SchedulerEnvSchema } from '../src/config/env.js';

export interface SchedulerTestPlatform {
  rpc: RpcClient;
  db: TestDatabase;
  admin: Actor;
  /** Scheduler replicas, in-process from sources. */
  replicas: INestMicroservice[];
  close(): Promise<void>;
}

/**
 * Control and dataplane as real processes (from their builds), and `replicaCount` scheduler replicas
 * in-process, all on one database, NATS prefix and Redis namespace of their own.
 */
export async function startSchedulerPlatform(
  replicaCount = 1,
  schedulerEnv: Record<string, string> = {},
): Promise<SchedulerTestPlatform> {
  const db = await createTestDatabase();
  const runId = `s${randomBytes(5).toString('hex')}`;
  const root = repoRoot();
  const runDir = join(root, 'test-results', 'runs', runId);
  mkdirSync(join(runDir, 'workdirs'), { recursive: true });
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    DATABASE_URL: db.url,
    REDIS_URL: 'redis://127.0.0.1:6379',
    NATS_URL: 'nats://127.0.0.1:4222',
    AGENTRY_ENV: runId,
    AGENTRY_SUBJECT_PREFIX: `${runId}.`,
    AGENTRY_LOG_LEVEL: 'warn',
    AGENTRY_WORKDIR_ROOT: join(runDir, 'workdirs'),
    AGENTRY_MASTER_KEY: randomBytes(32).toString('base64'),
  };
  const services = [
    new ServiceProcess('control', await freePort(), root, env, join(runDir, 'control.log')),
    new ServiceProcess('dataplane', await freePort(), root, env, join(runDir, 'dataplane.log')),
  ];
  for (const service of services) service.start();
  await Promise.all(services.map((s) => s.waitReady(120_000)));

  const config = SchedulerEnvSchema.parse({ ...env, AGENTRY_LOG_LEVEL: 'error', PORT: '0', ...schedulerEnv });
  const replicas: INestMicroservice[] = [];
  for (let i = 0; i < replicaCount; i += 1) {
    const app = await NestFactory.createMicroservice(AppModule.forRoot(config), {
      strategy: new PrefixedServerNats(
        { servers: [config.NATS_URL], queue: 'scheduler' },
        config.AGENTRY_SUBJECT_PREFIX,
        createLogger('scheduler', config.AGENTRY_LOG_LEVEL),
      ),
      logger: false,
      abortOnError: false,
    });
    await app.listen();
    replicas.push(app);
  }
  const proxy = new PrefixedClientNats({ servers: [config.NATS_URL] }, config.AGENTRY_SUBJECT_PREFIX);
  await proxy.connect();
  const rpc = new RpcClient(proxy, 20_000);
  const user = await rpc.request(ControlSubjects.login, { username: 'admin', password: 'admin' });
  const admin = await rpc.request(ControlSubjects.userActor, { userId: user.id });
  return {
    rpc,
    db,
    admin,
    replicas,
    close: async () => {
      await rpc.close();
      for (const app of replicas) await app.close();
      await Promise.all(services.map((s) => s.stop()));
      await db.drop();
      // Job schedulers of this run's deployments would otherwise stay in Redis.
      const redis = createRedis(env.REDIS_URL!);
      await deleteRedisKeys(redis, `agentry:${runId}:`);
      await redis.quit();
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** An agent on the scripted model and a remote environment, made through control, for deployments to use. */
export async function seedAgentAndEnvironment(
  platform: SchedulerTestPlatform,
  agentName: string,
): Promise<{ agentId: string; environmentId: string }> {
  const { rpc, admin: actor } = platform;
  const agent = await rpc.request(ControlSubjects.createAgent, {
    actor,
    body: { name: agentName, model: 'scripted' },
  });
  const environment = await rpc.request(ControlSubjects.createEnvironment, {
    actor,
    body: { name: 'env', config: { type: 'remote' } },
  });
  return { agentId: agent.id, environmentId: environment.id };
}
