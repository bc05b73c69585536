import type { INestMicroservice } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { createLogger, PrefixedServerNats } from '@agentry/platform';
import { AppModule } from '../src/app.module.js';
import type { WorkerEnv } from '../src/config/env.js';
import { E2B_SANDBOX_FACTORY, type E2bSandboxFactory } from '../src/e2b/e2b-sandbox-factory.js';
import { SandboxCredentialsClient } from '../src/hands/sandbox-credentials.client.js';
import { SessionRepositories } from '../src/resources/session-repositories.js';
import { EnvironmentBuildsClient } from '../src/userland/environment-builds.client.js';

/**
 * One worker process: the whole worker app over NATS. No control service runs beside it, so sessions have
 * no repositories to clone, no vault credentials and no packages; `e2b` replaces the SDK-backed sandbox factory.
 */
export async function startWorkerApp(config: WorkerEnv, e2b?: E2bSandboxFactory): Promise<INestMicroservice> {
  let builder = Test.createTestingModule({ imports: [AppModule.forRoot(config)] })
    .overrideProvider(SessionRepositories)
    .useValue({ ensure: () => Promise.resolve() })
    .overrideProvider(SandboxCredentialsClient)
    .useValue({ of: () => Promise.resolve([]) })
    .overrideProvider(EnvironmentBuildsClient)
    .useValue({
      handsConfig: () =>
        Promise.resolve({ environmentId: 'env_test', packages: null, allowPackageManagers: false }),
      report: () => Promise.resolve(),
    });
  if (e2b) builder = builder.overrideProvider(E2B_SANDBOX_FACTORY).useValue(e2b);
  const app = (await builder.compile()).createNestMicroservice({
    strategy: new PrefixedServerNats(
      { servers: [config.NATS_URL], queue: 'worker' },
      config.AGENTRY_SUBJECT_PREFIX,
      createLogger('worker', config.AGENTRY_LOG_LEVEL),
    ),
    logger: false,
  });
  await app.listen();
  return app;
}
