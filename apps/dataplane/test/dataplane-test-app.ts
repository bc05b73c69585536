import { randomBytes } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import type { INestMicroservice } from '@nestjs/common';
import {
  createLogger,
  createRedis,
  NatsBus,
  PrefixedClientNats,
  PrefixedServerNats,
  RpcClient,
  type Clock,
} from '@agentry/platform';
import {
  createTestDatabase,
  deleteRedisKeys,
  testRedisUrl,
  testSubjectPrefix,
  type TestDatabase,
} from '@agentry/testing';
import { AppModule } from '../src/app.module.js';
import { DataplaneEnvSchema, type DataplaneEnv } from '../src/config/env.js';

export interface DataplaneTestApp {
  /** The in-process app, to read its state where no message shows it. */
  app: INestMicroservice;
  rpc: RpcClient;
  /** Pub/sub under the app's subject prefix: what other services publish and subscribe to. */
  bus: NatsBus;
  db: TestDatabase;
  config: DataplaneEnv;
  close(): Promise<void>;
}

/**
 * The dataplane in-process (NATS handlers, drain worker, turn runner) on its own database, NATS
 * subject prefix and Redis/BullMQ prefix, reached the way the gateway reaches it: typed requests over NATS.
 */
export async function startDataplane(
  env: Record<string, string> = {},
  clock?: Clock,
): Promise<DataplaneTestApp> {
  const db = await createTestDatabase();
  const prefix = testSubjectPrefix();
  const config = DataplaneEnvSchema.parse({
    NODE_ENV: 'test',
    DATABASE_URL: db.url,
    REDIS_URL: testRedisUrl(),
    AGENTRY_ENV: `test-${randomBytes(6).toString('hex')}`,
    AGENTRY_SUBJECT_PREFIX: prefix,
    AGENTRY_LOG_LEVEL: 'error',
    PORT: '0',
    ...env,
  });
  const app: INestMicroservice = await NestFactory.createMicroservice(AppModule.forRoot(config, clock), {
    strategy: new PrefixedServerNats(
      { servers: [config.NATS_URL], queue: 'dataplane' },
      prefix,
      createLogger('dataplane', config.AGENTRY_LOG_LEVEL),
    ),
    logger: false,
    abortOnError: false,
  });
  await app.listen();
  const proxy = new PrefixedClientNats({ servers: [config.NATS_URL] }, prefix);
  await proxy.connect();
  const rpc = new RpcClient(proxy, 10_000);
  const bus = await NatsBus.connect(config.NATS_URL, prefix, 'dataplane-test');
  return {
    app,
    rpc,
    bus,
    db,
    config,
    close: async () => {
      await rpc.close();
      await bus.close();
      await app.close();
      const redis = createRedis(config.REDIS_URL);
      await deleteRedisKeys(redis, `agentry:${config.AGENTRY_ENV}:`);
      redis.disconnect();
      await db.drop();
    },
  };
}
