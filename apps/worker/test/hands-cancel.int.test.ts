import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestMicroservice } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HandsSubjects } from '@agentry/contracts';
import type { HarnessTool } from '@agentry/harness';
import {
  createLogger,
  createRedis,
  NatsBus,
  PrefixedClientNats,
  PrefixedServerNats,
  RpcClient,
} from '@agentry/platform';
import { deleteRedisKeys, testRedisUrl, testSubjectPrefix } from '@agentry/testing';
import { AppModule } from '../src/app.module.js';
import { WorkerEnvSchema, type WorkerEnv } from '../src/config/env.js';
import { HandsToolbox } from '../src/hands/hands-toolbox.js';
import { RunningToolCalls } from '../src/hands/running-tool-calls.js';
import { EnvironmentBuildsClient } from '../src/userland/environment-builds.client.js';
import { SandboxCredentialsClient } from '../src/hands/sandbox-credentials.client.js';
import { SessionRepositories } from '../src/resources/session-repositories.js';

/** A long-running tool that honours its signal, as the shell does: it runs until aborted. */
class ToolboxWithLongRun extends HandsToolbox {
  readonly starts: string[] = [];
  readonly aborts: { toolUseId: string }[] = [];
  private readonly longRun: HarnessTool = {
    name: 'long_run',
    description: 'Runs until cancelled',
    inputSchema: { type: 'object', properties: {} },
    toolset: 'builtin',
    idempotent: false,
    execute: (_input, { signal, toolCallId }) =>
      new Promise((resolve) => {
        this.starts.push(toolCallId);
        signal.addEventListener('abort', () => {
          this.aborts.push({ toolUseId: toolCallId });
          resolve({ status: 'error', content: [{ type: 'text', text: 'stopped' }], reason: 'aborted' });
        });
      }),
  };

  override get(...args: Parameters<HandsToolbox['get']>): HarnessTool | null {
    return args[0] === this.longRun.name ? this.longRun : super.get(...args);
  }
}

describe('Hands: a cancel aborts the call it names', () => {
  let app: INestMicroservice;
  let rpc: RpcClient;
  let bus: NatsBus;
  let config: WorkerEnv;
  let workdirs: string;
  let running: RunningToolCalls;
  const toolbox = new ToolboxWithLongRun();

  beforeAll(async () => {
    workdirs = await mkdtemp(join(tmpdir(), 'hands-cancel-'));
    const prefix = testSubjectPrefix();
    config = WorkerEnvSchema.parse({
      NODE_ENV: 'test',
      REDIS_URL: testRedisUrl(),
      AGENTRY_ENV: `test-${randomBytes(6).toString('hex')}`,
      AGENTRY_SUBJECT_PREFIX: prefix,
      AGENTRY_LOG_LEVEL: 'error',
      AGENTRY_WORKDIR_ROOT: workdirs,
      PORT: '0',
    });
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(config)] })
      .overrideProvider(HandsToolbox)
      .useValue(toolbox)
      // No control service runs here: the session has no repositories to clone, no vault credentials, no packages.
      .overrideProvider(SessionRepositories)
      .useValue({ ensure: () => Promise.resolve() })
      .overrideProvider(SandboxCredentialsClient)
      .useValue({ of: () => Promise.resolve([]) })
      .overrideProvider(EnvironmentBuildsClient)
      .useValue({
        handsConfig: () =>
          Promise.resolve({ environmentId: 'env_1', packages: null, allowPackageManagers: false }),
        report: () => Promise.resolve(),
      })
      .compile();
    running = moduleRef.get(RunningToolCalls);
    app = moduleRef.createNestMicroservice({
      strategy: new PrefixedServerNats(
        { servers: [config.NATS_URL], queue: 'worker' },
        prefix,
        createLogger('worker', config.AGENTRY_LOG_LEVEL),
      ),
      logger: false,
    });
    await app.listen();
    const proxy = new PrefixedClientNats({ servers: [config.NATS_URL] }, prefix);
    await proxy.connect();
    rpc = new RpcClient(proxy, 30_000);
    bus = await NatsBus.connect(config.NATS_URL, prefix, 'hands-cancel-test');
  });

  afterAll(async () => {
    await rpc?.close();
    await bus?.close();
    await app?.close();
    const redis = createRedis(config.REDIS_URL);
    await deleteRedisKeys(redis, `agentry:${config.AGENTRY_ENV}:`);
    redis.disconnect();
    await rm(workdirs, { recursive: true, force: true });
  });

  const exec = (toolUseId: string) =>
    rpc.request(
      HandsSubjects.exec,
      {
        tenantId: 'ten_1',
        sessionId: 'sesn_1',
        environmentId: 'env_1',
        environmentType: 'local',
        toolUseId,
        name: 'long_run',
        input: {},
        timeoutMs: 60_000,
      },
      { timeoutMs: 60_000 },
    );

  it('aborts the running call on a cancel for its tool_use id, at once, and answers that it was cancelled', async () => {
    const running = exec('sevt_long1');
    const other = exec('sevt_long2');
    await vi.waitFor(() => expect(toolbox.starts.sort()).toEqual(['sevt_long1', 'sevt_long2']), {
      timeout: 10_000,
    });
    bus.publish(HandsSubjects.cancel, {
      v: 1,
      sessionId: 'sesn_1',
      toolUseId: 'sevt_long1',
      reason: 'interrupted',
    });
    // The call runs until aborted: its answer is the abort's.
    const result = await running;
    expect(toolbox.aborts.map((a) => a.toolUseId)).toEqual(['sevt_long1']);
    expect(result).toMatchObject({ toolUseId: 'sevt_long1', isError: true, reason: 'cancelled' });
    expect(result.content[0]!.text).toMatch(/cancelled \(interrupted\)/);

    // Only the named call stops: the other one runs on until its own cancel, whose reason it answers with.
    bus.publish(HandsSubjects.cancel, {
      v: 1,
      sessionId: 'sesn_1',
      toolUseId: 'sevt_long2',
      reason: 'lease_lost',
    });
    const second = await other;
    expect(second).toMatchObject({ toolUseId: 'sevt_long2', reason: 'cancelled' });
    expect(second.content[0]!.text).toMatch(/cancelled \(lease_lost\)/);
    expect(toolbox.aborts.map((a) => a.toolUseId)).toEqual(['sevt_long1', 'sevt_long2']);
  });

  it('refuses a call whose cancel arrived before it, without running it', async () => {
    const cancelled = vi.spyOn(running, 'cancel');
    bus.publish(HandsSubjects.cancel, {
      v: 1,
      sessionId: 'sesn_1',
      toolUseId: 'sevt_early',
      reason: 'interrupted',
    });
    await vi.waitFor(() => expect(cancelled).toHaveBeenCalledWith('sevt_early', 'interrupted'));
    cancelled.mockRestore();
    const before = toolbox.aborts.length;
    const result = await exec('sevt_early');
    expect(result).toMatchObject({ toolUseId: 'sevt_early', isError: true, reason: 'cancelled' });
    expect(toolbox.aborts).toHaveLength(before);
  });
});
