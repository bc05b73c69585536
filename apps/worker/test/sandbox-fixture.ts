import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import type {
  HandsExecRequest,
  HandsExecResult,
  SandboxCredential,
  SandboxNetworking,
} from '@agentry/contracts';
import { SystemClock, type Logger } from '@agentry/platform';
import { testRedisUrl } from '@agentry/testing';
import { WorkerEnvSchema, type WorkerEnv } from '../src/config/env.js';
import type { SessionRepositories } from '../src/resources/session-repositories.js';
import { HandsExecService } from '../src/hands/hands-exec.service.js';
import { HandsToolbox } from '../src/hands/hands-toolbox.js';
import { RunningToolCalls } from '../src/hands/running-tool-calls.js';
import type { SandboxCredentialsClient } from '../src/hands/sandbox-credentials.client.js';
import { SessionSandboxes } from '../src/hands/session-sandboxes.js';
import { ToolResultCache } from '../src/hands/tool-result-cache.js';
import { DurableWorkspaces } from '../src/workspace/durable-workspaces.js';
import { E2bSessionSandboxes } from '../src/e2b/e2b-session-sandboxes.js';
import { sdkE2bSandboxFactory } from '../src/e2b/e2b-sandbox-factory.js';
import { SessionMounts } from '../src/mounts/session-mounts.js';

const quiet = { info() {}, warn() {}, error() {}, debug() {} } as unknown as Logger;
let calls = 0;

/**
 * The worker's tool execution as the Hands handler drives it: real sandboxes, real Redis result cache.
 * `credentials` stands in for the session's vault credentials that control would send.
 */
export async function startHands(env: Record<string, string> = {}, credentials: SandboxCredential[] = []) {
  const root = await mkdtemp(join(tmpdir(), 'hands-'));
  const config: WorkerEnv = WorkerEnvSchema.parse({ AGENTRY_WORKDIR_ROOT: root, ...env });
  const redis = new Redis(testRedisUrl(), { lazyConnect: false, maxRetriesPerRequest: 1 });
  const clock = new SystemClock();
  const sandboxes = new SessionSandboxes(config, quiet, clock);
  const durable = new DurableWorkspaces(config, quiet);
  const mounts = new SessionMounts(config);
  // Sessions of these tests have no repository resources to clone.
  const noRepositories = { ensure: async () => undefined } as unknown as SessionRepositories;
  const vault = { of: async () => credentials } as unknown as SandboxCredentialsClient;
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
    } = {},
  ): Promise<HandsExecResult> => {
    const request: HandsExecRequest = {
      v: 1,
      tenantId: 'tenant_hands',
      sessionId,
      environmentId: 'env_hands',
      environmentType: 'sandbox',
      toolUseId: `toolu_${process.pid}_${Date.now()}_${calls++}`,
      name,
      input,
      timeoutMs: options.timeoutMs ?? 30_000,
      networking: options.networking ?? { type: 'unrestricted', allowedHosts: [] },
      mounts: [],
      ...(options.bindingEpoch !== undefined ? { bindingEpoch: options.bindingEpoch } : {}),
    };
    return hands.execute(request, options.signal);
  };
  return {
    root,
    config,
    sandboxes,
    run,
    text: (result: HandsExecResult) => result.content.map((c) => c.text).join(''),
    async stop() {
      await sandboxes.onModuleDestroy();
      await durable.onApplicationShutdown();
      await mounts.onApplicationShutdown();
      redis.disconnect();
      await rm(root, { recursive: true, force: true });
    },
  };
}

export type Hands = Awaited<ReturnType<typeof startHands>>;
