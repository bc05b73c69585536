import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import type {
  HandsExecRequest,
  HandsExecResult,
  SandboxCredential,
  Packages,
  SandboxNetworking,
} from '@agentry/contracts';
import { SystemClock, type Logger } from '@agentry/platform';
import { testRedisUrl } from '@agentry/testing';
import { WorkerEnvSchema, type WorkerEnv } from '../src/config/env.js';
import type { SessionRepositories } from '../src/resources/session-repositories.js';
import { HandsExecService } from '../src/hands/hands-exec.service.js';
import { HandsToolbox } from '../src/hands/hands-toolbox.js';
import { RunningToolCalls } from '../src/hands/running-tool-calls.js';
import {
  CredentialsUnavailableError,
  type SandboxCredentialsClient,
} from '../src/hands/sandbox-credentials.client.js';
import { SessionSandboxes } from '../src/hands/session-sandboxes.js';
import { SandboxCaps } from '../src/sandbox/sandbox-caps.js';
import type { BuildReport, EnvironmentBuildsClient } from '../src/userland/environment-builds.client.js';
import { SandboxImages } from '../src/userland/sandbox-images.js';
import { ToolResultCache } from '../src/hands/tool-result-cache.js';
import { DurableWorkspaces } from '../src/workspace/durable-workspaces.js';
import { E2bSessionSandboxes } from '../src/e2b/e2b-session-sandboxes.js';
import { sdkE2bSandboxFactory } from '../src/e2b/e2b-sandbox-factory.js';
import { SessionMounts } from '../src/mounts/session-mounts.js';

const NO_PACKAGES = { apt: [], cargo: [], gem: [], go: [], npm: [], pip: [] };
/** A logger that says nothing, for the Hands under test. */
export const quiet = { info() {}, warn() {}, error() {}, debug() {} } as unknown as Logger;
let calls = 0;

/**
 * The worker's tool execution as the Hands handler drives it: real sandboxes, real Redis result cache.
 * `credentials` stands in for the session's vault credentials that control would send ('unanswered':
 * control does not answer).
 */
export async function startHands(
  env: Record<string, string> = {},
  credentials: SandboxCredential[] | 'unanswered' = [],
  environment: { packages?: Partial<Packages>; allowPackageManagers?: boolean } = {},
) {
  const root = await mkdtemp(join(tmpdir(), 'hands-'));
  const config: WorkerEnv = WorkerEnvSchema.parse({ AGENTRY_WORKDIR_ROOT: root, ...env });
  const redis = new Redis(testRedisUrl(), { lazyConnect: false, maxRetriesPerRequest: 1 });
  const clock = new SystemClock();
  // Control's side of environment images: this environment's packages, and the reports it was sent.
  const reports: BuildReport[] = [];
  const builds = {
    handsConfig: () =>
      Promise.resolve({
        environmentId: 'env_hands',
        packages: environment.packages ? { ...NO_PACKAGES, ...environment.packages } : null,
        allowPackageManagers: environment.allowPackageManagers ?? false,
      }),
    report: (report: BuildReport) => {
      reports.push(report);
      return Promise.resolve();
    },
  } as unknown as EnvironmentBuildsClient;
  const caps = new SandboxCaps(config, quiet);
  const images = new SandboxImages(config, quiet, clock, builds);
  const sandboxes = new SessionSandboxes(config, quiet, clock, images, caps);
  const durable = new DurableWorkspaces(config, quiet);
  const mounts = new SessionMounts(config);
  // Sessions of these tests have no repository resources to clone.
  const noRepositories = { ensure: () => Promise.resolve() } as unknown as SessionRepositories;
  const vault = {
    of: (_tenantId: string, sessionId: string) =>
      credentials === 'unanswered'
        ? Promise.reject(new CredentialsUnavailableError(sessionId))
        : Promise.resolve(credentials),
  } as unknown as SandboxCredentialsClient;
  const hands = new HandsExecService(
    sandboxes,
    new ToolResultCache(redis, config),
    new HandsToolbox(),
    new RunningToolCalls(clock),
    durable,
    mounts,
    vault,
    noRepositories,
    new E2bSessionSandboxes(sdkE2bSandboxFactory, redis, config, quiet, new SystemClock()),
    config,
    quiet,
  );
  const run = (
    sessionId: string,
    name: string,
    input: Record<string, unknown>,
    options: {
      signal?: AbortSignal;
      timeoutMs?: number;
      networking?: SandboxNetworking;
      bindingEpoch?: number;
      toolUseId?: string;
      /** False: the session lists no vaults (see HandsExecRequest). */
      vaults?: boolean;
    } = {},
  ): Promise<HandsExecResult> => {
    const request: HandsExecRequest = {
      v: 1,
      tenantId: 'tenant_hands',
      sessionId,
      environmentId: 'env_hands',
      environmentType: 'sandbox',
      toolUseId: options.toolUseId ?? `toolu_${process.pid}_${Date.now()}_${calls++}`,
      name,
      input,
      timeoutMs: options.timeoutMs ?? 30_000,
      networking: options.networking ?? { type: 'unrestricted', allowedHosts: [] },
      mounts: [],
      ...(options.bindingEpoch !== undefined ? { bindingEpoch: options.bindingEpoch } : {}),
      ...(options.vaults !== undefined ? { vaults: options.vaults } : {}),
    };
    return hands.execute(request, options.signal);
  };
  return {
    root,
    config,
    redis,
    sandboxes,
    caps,
    images,
    reports,
    run,
    text: (result: HandsExecResult) => result.content.map((c) => c.text).join(''),
    async stop() {
      await sandboxes.onModuleDestroy();
      await caps.onModuleDestroy();
      await durable.onApplicationShutdown();
      await mounts.onApplicationShutdown();
      redis.disconnect();
      await rm(root, { recursive: true, force: true });
    },
  };
}

export type Hands = Awaited<ReturnType<typeof startHands>>;
