import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { createLogger, PrefixedClientNats, PrefixedServerNats, RpcClient } from '@agentry/platform';
import { randomBytes } from 'node:crypto';
import {
  createTestDatabase,
  launchService,
  testRedisUrl,
  testSubjectPrefix,
  type TestDatabase,
} from '@agentry/testing';
import { ControlSubjects, type Actor } from '@agentry/contracts';
import { AppModule } from '../src/app.module.js';
import { ControlEnvSchema } from '../src/config/env.js';

export interface ControlTestApp {
  rpc: RpcClient;
  db: TestDatabase;
  /** The NATS subject prefix this control instance uses for RPC and pub/sub. */
  prefix: string;
  /** The seeded admin of the default tenant, as an actor. */
  admin: Actor;
  close(): Promise<void>;
}

export interface ControlTestOptions {
  /**
   * Also runs the built dataplane on the same database and prefix: the owner of the `sessions` table, which
   * stores the sessions control defines. Needed by any test that creates, edits or deletes a session.
   */
  dataplane?: boolean;
}

/**
 * The control service in-process, on its own database and NATS subject prefix, reached the way the
 * gateway reaches it: typed requests over NATS.
 */
export async function startControl(
  env: Record<string, string> = {},
  options: ControlTestOptions = {},
): Promise<ControlTestApp> {
  const db = await createTestDatabase();
  const prefix = testSubjectPrefix();
  const config = ControlEnvSchema.parse({
    NODE_ENV: 'test',
    DATABASE_URL: db.url,
    AGENTRY_SUBJECT_PREFIX: prefix,
    AGENTRY_LOG_LEVEL: 'error',
    AGENTRY_MASTER_KEY: Buffer.alloc(32, 7).toString('base64'),
    PORT: '0',
    // Webhook events go to a queue of this test's own, never to an installation's.
    REDIS_URL: testRedisUrl(),
    AGENTRY_ENV: `test-${randomBytes(6).toString('hex')}`,
    ...env,
  });
  const dataplane = options.dataplane
    ? await launchService('dataplane', {
        DATABASE_URL: db.url,
        REDIS_URL: testRedisUrl(),
        NATS_URL: config.NATS_URL,
        AGENTRY_ENV: `test-${randomBytes(6).toString('hex')}`,
        AGENTRY_SUBJECT_PREFIX: prefix,
        AGENTRY_LOG_LEVEL: 'warn',
      })
    : undefined;
  const app: INestApplication = await NestFactory.create(AppModule.forRoot(config), new FastifyAdapter(), {
    logger: false,
    abortOnError: false,
  });
  app.connectMicroservice({
    strategy: new PrefixedServerNats(
      { servers: [config.NATS_URL], queue: 'control' },
      prefix,
      createLogger('control', config.AGENTRY_LOG_LEVEL),
    ),
  });
  await app.startAllMicroservices();
  await app.init();
  const proxy = new PrefixedClientNats({ servers: [config.NATS_URL] }, prefix);
  await proxy.connect();
  const rpc = new RpcClient(proxy, 10_000);
  const user = await rpc.request(ControlSubjects.login, { username: 'admin', password: 'admin' });
  const admin = await rpc.request(ControlSubjects.userActor, { userId: user.id });
  return {
    rpc,
    db,
    prefix,
    admin,
    close: async () => {
      await rpc.close();
      await app.close();
      await dataplane?.stop();
      await db.drop();
    },
  };
}
