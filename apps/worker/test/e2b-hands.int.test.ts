import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestMicroservice } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  HandsHeartbeatKeys,
  HandsSubjects,
  type HandsExecResult,
  type SandboxProviderChoice,
} from '@agentry/contracts';
import { createRedis, NatsBus, PrefixedClientNats, redisKeyPrefix, RpcClient } from '@agentry/platform';
import { deleteRedisKeys, testRedisUrl, testSubjectPrefix } from '@agentry/testing';
import { WorkerEnvSchema, type WorkerEnv } from '../src/config/env.js';
import { WORKER_ID } from '../src/hands/worker-identity.js';
import { FakeE2bCloud } from './fake-e2b-cloud.js';
import { startWorkerApp } from './worker-app.js';
import { untilWorkerAnswers } from './worker-ready.js';

const API_KEY = 'e2b_test_key_that_must_not_leak';
const E2B: SandboxProviderChoice = { provider: 'e2b', template: 'agentry-python' };

describe('Hands: sessions whose tools run in E2B', () => {
  let root: string;
  let cloud: FakeE2bCloud;
  let base: Record<string, string>;
  let config: WorkerEnv;
  let worker: INestMicroservice | undefined;
  let rpc: RpcClient;
  let bus: NatsBus;
  let calls = 0;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'hands-e2b-'));
    cloud = new FakeE2bCloud(join(root, 'e2b'));
    const prefix = testSubjectPrefix();
    base = {
      NODE_ENV: 'test',
      REDIS_URL: testRedisUrl(),
      AGENTRY_ENV: `test-${randomBytes(6).toString('hex')}`,
      AGENTRY_SUBJECT_PREFIX: prefix,
      AGENTRY_LOG_LEVEL: 'error',
      AGENTRY_WORKDIR_ROOT: join(root, 'workdirs'),
      AGENTRY_E2B_API_KEY: API_KEY,
      AGENTRY_E2B_API_URL: 'https://api.e2b.internal.example',
      AGENTRY_E2B_DOMAIN: 'e2b.internal.example',
      AGENTRY_HANDS_STATUS_INTERVAL_MS: '100',
      PORT: '0',
    };
    config = WorkerEnvSchema.parse(base);
    worker = await startWorkerApp(config, cloud);
    const proxy = new PrefixedClientNats({ servers: [config.NATS_URL] }, prefix);
    await proxy.connect();
    rpc = new RpcClient(proxy, 30_000);
    bus = await NatsBus.connect(config.NATS_URL, prefix, 'hands-e2b-test');
  });

  afterAll(async () => {
    await rpc?.close();
    await bus?.close();
    await worker?.close();
    const redis = createRedis(config.REDIS_URL);
    await deleteRedisKeys(redis, `agentry:${config.AGENTRY_ENV}:`);
    redis.disconnect();
    await rm(root, { recursive: true, force: true });
  });

  const exec = (
    sessionId: string,
    name: string,
    input: Record<string, unknown>,
    sandbox: SandboxProviderChoice | null = E2B,
    toolUseId = `toolu_e2b_${calls++}`,
  ): Promise<HandsExecResult> =>
    rpc.request(
      HandsSubjects.exec,
      {
        tenantId: 'ten_e2b',
        sessionId,
        environmentId: 'env_e2b',
        environmentType: 'sandbox',
        toolUseId,
        name,
        input,
        timeoutMs: 30_000,
        ...(sandbox ? { sandbox } : {}),
      },
      { timeoutMs: 40_000 },
    );
  const text = (result: HandsExecResult) => result.content.map((c) => c.text).join('');
  const restartWorker = async (env: Record<string, string>) => {
    await worker?.close();
    config = WorkerEnvSchema.parse({ ...base, ...env });
    worker = await startWorkerApp(config, cloud);
    await untilWorkerAnswers(rpc);
  };

  it('creates one sandbox on the first call and runs every later call of the session in it, bash keeping cwd and env', async () => {
    const write = await exec('sesn_a', 'write', { file_path: '/workspace/notes/a.txt', content: 'alpha' });
    expect(write.isError).toBe(false);
    expect(await exec('sesn_a', 'bash', { command: 'cd notes && export GREETING=hello' })).toMatchObject({
      isError: false,
    });
    const shell = await exec('sesn_a', 'bash', { command: 'pwd; echo "$GREETING"; cat a.txt' });
    expect(text(shell)).toBe(`${cloud.workdirOf('sbx_1')}/notes\nhello\nalpha`);
    expect(text(await exec('sesn_a', 'read', { file_path: '/workspace/notes/a.txt' }))).toContain('alpha');

    expect(cloud.requests.filter((r) => r === 'create')).toHaveLength(1);
    // The Hands status lists the session among the sandboxes this worker holds.
    const redis = createRedis(config.REDIS_URL, { keyPrefix: redisKeyPrefix(config.AGENTRY_ENV) });
    try {
      await vi.waitFor(
        async () => {
          const beat = JSON.parse((await redis.get(HandsHeartbeatKeys.worker(WORKER_ID))) ?? '{}') as {
            liveSandboxes?: unknown[];
          };
          expect(beat.liveSandboxes).toContainEqual({ tenantId: 'ten_e2b', sessionId: 'sesn_a' });
        },
        { timeout: 10_000 },
      );
    } finally {
      redis.disconnect();
    }
    expect(await readFile(join(cloud.workdirOf('sbx_1'), 'notes', 'a.txt'), 'utf8')).toBe('alpha');
    // The environment's template, the installation's self-hosted endpoint and key.
    expect(cloud.createOptions[0]).toMatchObject({
      template: 'agentry-python',
      apiKey: API_KEY,
      apiUrl: 'https://api.e2b.internal.example',
      domain: 'e2b.internal.example',
      allowInternetAccess: true,
    });

    const restart = await exec('sesn_a', 'bash', { restart: true });
    expect(text(restart)).toMatch(/restarted/);
    const after = await exec('sesn_a', 'bash', { command: 'pwd; echo "[$GREETING]"' });
    expect(text(after)).toBe(`${cloud.workdirOf('sbx_1')}\n[]`);
  });

  it('runs sessions of environments without an E2B choice in the worker sandbox, not in E2B', async () => {
    const before = cloud.requests.length;
    expect(text(await exec('sesn_local', 'bash', { command: 'echo local' }, null))).toBe('local');
    expect(
      text(await exec('sesn_local', 'bash', { command: 'echo local' }, { provider: 'bubblewrap' })),
    ).toBe('local');
    expect(cloud.requests.slice(before)).toEqual([]);
  });

  it("refuses an environment's E2B endpoint the installation does not allow, so its key goes nowhere else", async () => {
    const before = cloud.requests.length;
    const result = await exec(
      'sesn_elsewhere',
      'bash',
      { command: 'true' },
      {
        provider: 'e2b',
        apiUrl: 'https://collector.example.net',
      },
    );
    expect(result).toMatchObject({ isError: true, reason: 'sandbox_unavailable' });
    expect(text(result)).toMatch(
      /api_url host collector\.example\.net is not in this installation's AGENTRY_E2B_ALLOWED_DOMAINS/,
    );
    expect(cloud.requests.slice(before)).toEqual([]);
  });

  it('kills the running E2B command when the call is cancelled', async () => {
    const toolUseId = 'toolu_e2b_cancel';
    const sleep = Buffer.from('sleep 30').toString('base64');
    const running = exec('sesn_a', 'bash', { command: 'sleep 30' }, E2B, toolUseId);
    await vi.waitFor(() => expect(cloud.runs('sbx_1').at(-1)?.cmd).toContain(sleep), { timeout: 10_000 });
    await vi.waitFor(
      () => {
        bus.publish(HandsSubjects.cancel, { v: 1, sessionId: 'sesn_a', toolUseId, reason: 'interrupted' });
        expect(cloud.runs('sbx_1').at(-1)?.killed).toBe(true);
      },
      { timeout: 10_000, interval: 200 },
    );
    expect(await running).toMatchObject({ isError: true, reason: 'cancelled' });
  });

  it('answers a clear tool error, without the API key, when E2B is down', async () => {
    cloud.down = true;
    try {
      const result = await exec('sesn_down', 'bash', { command: 'echo never' });
      expect(result).toMatchObject({ isError: true, reason: 'sandbox_unavailable' });
      expect(text(result)).toMatch(
        /E2B sandbox could not be reached \(ConnectionError: connect ECONNREFUSED/,
      );
      expect(JSON.stringify(result)).not.toContain(API_KEY);
    } finally {
      cloud.down = false;
    }
    // Once E2B is back, the session's next call gets its sandbox.
    expect(text(await exec('sesn_down', 'bash', { command: 'echo back' }))).toBe('back');
  });

  it('answers a tool error, not a hung call, when E2B fails under a sandbox the session holds', async () => {
    expect(text(await exec('sesn_flaky', 'bash', { command: 'echo up' }))).toBe('up');
    cloud.down = true;
    try {
      const failed = await exec('sesn_flaky', 'bash', { command: 'echo never' });
      expect(failed.isError).toBe(true);
      expect(text(failed)).toMatch(/ECONNREFUSED/);
    } finally {
      cloud.down = false;
    }
    expect(text(await exec('sesn_flaky', 'bash', { command: 'echo again' }))).toBe('again');
  });

  it('connects to the same sandbox after a worker restart, pauses it when idle and resumes it on the next call', async () => {
    await restartWorker({ AGENTRY_E2B_IDLE_MS: '300', AGENTRY_E2B_IDLE_ACTION: 'pause' });
    const creates = cloud.requests.filter((r) => r === 'create').length;
    await exec('sesn_a', 'bash', { command: 'cd notes && export GREETING=again' });
    expect(cloud.requests).toContain('connect sbx_1');
    expect(cloud.requests.filter((r) => r === 'create')).toHaveLength(creates);

    await vi.waitFor(() => expect(cloud.stateOf('sbx_1')).toBe('paused'), { timeout: 10_000 });
    const resumed = await exec('sesn_a', 'bash', { command: 'pwd; echo "$GREETING"; cat a.txt' });
    expect(text(resumed)).toBe(`${cloud.workdirOf('sbx_1')}/notes\nagain\nalpha`);
    expect(cloud.stateOf('sbx_1')).toBe('running');
  });

  it('kills an idle sandbox when so configured, and the session later gets a new one', async () => {
    await restartWorker({ AGENTRY_E2B_IDLE_MS: '300', AGENTRY_E2B_IDLE_ACTION: 'kill' });
    await exec('sesn_k', 'write', { file_path: '/workspace/k.txt', content: 'k' });
    const id = `sbx_${cloud.sandboxes.size}`;
    await vi.waitFor(() => expect(cloud.stateOf(id)).toBe('killed'), { timeout: 10_000 });
    const again = await exec('sesn_k', 'bash', { command: 'ls' });
    expect(again.isError).toBe(false);
    expect(cloud.stateOf(`sbx_${cloud.sandboxes.size}`)).toBe('running');
    expect(cloud.sandboxes.size).toBeGreaterThan(Number(id.slice(4)));
  });

  it('uses E2B for every session when the installation makes it the default, unless the environment says otherwise', async () => {
    await restartWorker({ AGENTRY_SANDBOX_PROVIDER: 'e2b', AGENTRY_E2B_TEMPLATE: 'installation-template' });
    const creates = cloud.createOptions.length;
    expect(text(await exec('sesn_default', 'bash', { command: 'echo in-e2b' }, null))).toBe('in-e2b');
    expect(cloud.createOptions.slice(creates)).toMatchObject([{ template: 'installation-template' }]);
    await exec('sesn_default_bwrap', 'bash', { command: 'true' }, { provider: 'bubblewrap' });
    expect(cloud.createOptions).toHaveLength(creates + 1);
  });

  it('connects again to a sandbox in use halfway through its E2B lifetime, which extends it', async () => {
    await restartWorker({ AGENTRY_E2B_SANDBOX_TIMEOUT_MS: '2' });
    await exec('sesn_long', 'bash', { command: 'true' });
    const id = `sbx_${cloud.sandboxes.size}`;
    await exec('sesn_long', 'bash', { command: 'true' });
    expect(cloud.requests).toContain(`connect ${id}`);
    expect(cloud.connectOptions.at(-1)).toMatchObject({ sandboxTimeoutMs: 2 });
    expect(cloud.stateOf(id)).toBe('running');
  });

  it('kills the session sandbox when the session is deleted, held here or only remembered', async () => {
    await restartWorker({});
    await exec('sesn_end', 'bash', { command: 'true' });
    const held = `sbx_${cloud.sandboxes.size}`;
    bus.publish(HandsSubjects.sessionEnded, { v: 1, tenantId: 'ten_e2b', sessionId: 'sesn_end' });
    await vi.waitFor(() => expect(cloud.stateOf(held)).toBe('killed'), { timeout: 10_000 });

    // sesn_a's sandbox was paused by an earlier worker; this one never held it and kills it by its id.
    bus.publish(HandsSubjects.sessionEnded, { v: 1, tenantId: 'ten_e2b', sessionId: 'sesn_a' });
    await vi.waitFor(() => expect(cloud.stateOf('sbx_1')).toBe('killed'), { timeout: 10_000 });
    const fresh = await exec('sesn_a', 'bash', { command: 'ls' });
    expect(fresh.isError).toBe(false);
    expect(cloud.stateOf(`sbx_${cloud.sandboxes.size}`)).toBe('running');
    expect(cloud.sandboxes.size).toBeGreaterThan(Number(held.slice(4)));
  });
});
