import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestMicroservice } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HandsSubjects, type HandsExecResult } from '@agentry/contracts';
import { createRedis, NatsBus, PrefixedClientNats, RpcClient } from '@agentry/platform';
import { deleteRedisKeys, testRedisUrl, testSubjectPrefix } from '@agentry/testing';
import { WorkerEnvSchema, type WorkerEnv } from '../src/config/env.js';
import { FakeE2bServer } from '@agentry/testing';
import { startWorkerApp } from './worker-app.js';
import { untilWorkerAnswers } from './worker-ready.js';

const API_KEY = 'e2b_sdk_test_key_that_must_not_leak';

describe('Hands: the e2b SDK driven by the worker against an E2B over HTTP', () => {
  let root: string;
  let e2b: FakeE2bServer;
  let config: WorkerEnv;
  let worker: INestMicroservice | undefined;
  let rpc: RpcClient;
  let bus: NatsBus;
  let calls = 0;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'hands-e2b-sdk-'));
    e2b = await new FakeE2bServer().start();
    const prefix = testSubjectPrefix();
    config = WorkerEnvSchema.parse({
      NODE_ENV: 'test',
      REDIS_URL: testRedisUrl(),
      AGENTRY_ENV: `test-${randomBytes(6).toString('hex')}`,
      AGENTRY_SUBJECT_PREFIX: prefix,
      AGENTRY_LOG_LEVEL: 'error',
      AGENTRY_WORKDIR_ROOT: join(root, 'workdirs'),
      AGENTRY_SANDBOX_PROVIDER: 'e2b',
      AGENTRY_E2B_API_KEY: API_KEY,
      AGENTRY_E2B_API_URL: e2b.url,
      AGENTRY_E2B_SANDBOX_URL: e2b.url,
      AGENTRY_E2B_WORKDIR: join(root, 'sandbox', 'workspace'),
      AGENTRY_E2B_REQUEST_TIMEOUT_MS: '5000',
      PORT: '0',
    });
    worker = await startWorkerApp(config);
    const proxy = new PrefixedClientNats({ servers: [config.NATS_URL] }, prefix);
    await proxy.connect();
    rpc = new RpcClient(proxy, 30_000);
    bus = await NatsBus.connect(config.NATS_URL, prefix, 'hands-e2b-sdk-test');
  });

  afterAll(async () => {
    await rpc?.close();
    await bus?.close();
    await worker?.close();
    await e2b?.stop();
    const redis = createRedis(config.REDIS_URL);
    await deleteRedisKeys(redis, `agentry:${config.AGENTRY_ENV}:`);
    redis.disconnect();
    await rm(root, { recursive: true, force: true });
  });

  const exec = (name: string, input: Record<string, unknown>, toolUseId = `toolu_sdk_${calls++}`) =>
    rpc.request(
      HandsSubjects.exec,
      {
        tenantId: 'ten_sdk',
        sessionId: 'sesn_sdk',
        environmentId: 'env_sdk',
        environmentType: 'sandbox',
        toolUseId,
        name,
        input,
        timeoutMs: 30_000,
      },
      { timeoutMs: 40_000 },
    );
  const text = (result: HandsExecResult) => result.content.map((c) => c.text).join('');
  const workdir = () => config.AGENTRY_E2B_WORKDIR;

  it('creates the sandbox once, runs the file tools and a bash that keeps cwd and env through envd', async () => {
    expect(await exec('write', { file_path: '/workspace/src/app.txt', content: 'hello e2b' })).toMatchObject({
      isError: false,
    });
    expect(await readFile(join(workdir(), 'src', 'app.txt'), 'utf8')).toBe('hello e2b');
    await exec('bash', { command: 'cd src && export STAGE=one' });
    const shell = await exec('bash', { command: 'pwd; echo "$STAGE"; cat app.txt; echo oops >&2; exit 3' });
    expect(shell.isError).toBe(true);
    expect(text(shell)).toContain(`${workdir()}/src\none\nhello e2boops`);
    expect(text(await exec('read', { file_path: '/workspace/src/app.txt' }))).toContain('hello e2b');
    expect(text(await exec('glob', { pattern: '**/*.txt' }))).toContain('src/app.txt');
    expect(
      await exec('edit', { file_path: '/workspace/src/app.txt', old_string: 'hello', new_string: 'bye' }),
    ).toMatchObject({ isError: false });
    expect(await readFile(join(workdir(), 'src', 'app.txt'), 'utf8')).toBe('bye e2b');

    expect(text(await exec('bash', { restart: true }))).toMatch(/restarted/);
    expect(text(await exec('bash', { command: 'pwd; echo "[$STAGE]"' }))).toBe(`${workdir()}\n[]`);

    expect(e2b.apiRequests).toEqual(['POST /v2/sandboxes']);
    // The key goes to the control plane only, never to the sandbox.
    expect([...e2b.apiKeys]).toEqual([API_KEY]);
    expect(JSON.stringify(e2b.envdHeaders)).not.toContain(API_KEY);
  });

  it('kills the running command in the sandbox when the call is cancelled', async () => {
    const toolUseId = 'toolu_sdk_cancel';
    const sleep = Buffer.from('sleep 30').toString('base64');
    const running = exec('bash', { command: 'sleep 30' }, toolUseId);
    await vi.waitFor(() => expect(e2b.started.at(-1)).toContain(sleep), { timeout: 10_000 });
    bus.publish(HandsSubjects.cancel, { v: 1, sessionId: 'sesn_sdk', toolUseId, reason: 'interrupted' });
    await vi.waitFor(() => expect(e2b.killedPids).toHaveLength(1), { timeout: 10_000 });
    expect(await running).toMatchObject({ isError: true, reason: 'cancelled' });
  });

  it('connects to the same sandbox after a restart, fails clearly while E2B is down, and kills it when the session is deleted', async () => {
    await worker?.close();
    expect(e2b.sandboxes.get('sbx1')).toBe('paused');
    worker = await startWorkerApp(config);
    await untilWorkerAnswers(rpc);
    expect(text(await exec('bash', { command: 'cat src/app.txt' }))).toBe('bye e2b');
    expect(e2b.apiRequests.slice(1)).toEqual([
      'POST /sandboxes/sbx1/pause',
      'POST /v2/sandboxes/sbx1/connect',
    ]);

    e2b.down = true;
    await worker.close();
    worker = await startWorkerApp(config);
    await untilWorkerAnswers(rpc);
    const down = await exec('bash', { command: 'true' });
    expect(down).toMatchObject({ isError: true, reason: 'sandbox_unavailable' });
    expect(text(down)).toMatch(/E2B sandbox could not be reached/);
    expect(JSON.stringify(down)).not.toContain(API_KEY);
    e2b.down = false;

    bus.publish(HandsSubjects.sessionEnded, { v: 1, tenantId: 'ten_sdk', sessionId: 'sesn_sdk' });
    await vi.waitFor(() => expect(e2b.sandboxes.get('sbx1')).toBe('killed'), { timeout: 10_000 });
    expect(e2b.apiRequests.at(-1)).toBe('DELETE /sandboxes/sbx1');
  });
});
