import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { HandsRegistry, type HandsExecRequest } from '@agentry/contracts';
import { AGENT_FILE_TOOLS, type HarnessTool, type ToolInvocation } from '@agentry/harness';
import { createRedis, redisKeyPrefix, SystemClock, type RpcClient } from '@agentry/platform';
import { deleteRedisKeys, testRedisUrl } from '@agentry/testing';
import type { WorkspaceFs } from '@agentry/workspace';
import { HandsBindings } from '../src/hands/hands-bindings.js';
import { HandsToolExecutor } from '../src/hands/hands-tool-executor.js';

const target = {
  tenantId: 'ten_1',
  sessionId: 'sesn_1',
  environmentId: 'env_1',
  environmentType: 'local' as const,
  timeoutMs: 60_000,
  networking: { type: 'unrestricted' as const, allowedHosts: [] },
};

/** Session bindings and worker liveness on real Redis, and what a turn's tool call sees when its worker dies. */
describe('Hands bindings against real Redis', () => {
  const env = `bind${randomBytes(4).toString('hex')}`;
  const redis = createRedis(testRedisUrl(), { keyPrefix: redisKeyPrefix(env) });

  afterAll(async () => {
    await deleteRedisKeys(redis, redisKeyPrefix(env));
    redis.disconnect();
  });

  const beat = (workerId: string, validForMs = 60_000) =>
    redis.zadd(HandsRegistry.workers, Date.now() + validForMs, workerId);
  const die = (workerId: string) => redis.zadd(HandsRegistry.workers, Date.now() - 1, workerId);

  it('keeps a session on its worker while it lives, and moves it (new epoch) once it dies', async () => {
    const bindings = new HandsBindings(redis, 60_000, new SystemClock());
    await beat('w-a');
    await beat('w-b');
    const first = await bindings.bind('ten_1', 'sesn_stay');
    for (let i = 0; i < 10; i += 1) expect(await bindings.bind('ten_1', 'sesn_stay')).toEqual(first);
    await die(first.workerId);
    const moved = await bindings.bind('ten_1', 'sesn_stay');
    expect(moved.workerId).not.toBe(first.workerId);
    expect(moved.epoch).toBeGreaterThan(first.epoch);
    expect(await redis.pttl(HandsRegistry.binding('ten_1', 'sesn_stay'))).toBeGreaterThan(50_000);
  });

  it("renews a kept binding's lease with each call, and keeps its epoch", async () => {
    const bindings = new HandsBindings(redis, 60_000, new SystemClock());
    await beat('w-lease');
    const first = await bindings.bind('ten_1', 'sesn_lease');
    await redis.pexpire(HandsRegistry.binding('ten_1', 'sesn_lease'), 1_000);
    expect(await bindings.bind('ten_1', 'sesn_lease')).toEqual(first);
    expect(await redis.pttl(HandsRegistry.binding('ten_1', 'sesn_lease'))).toBeGreaterThan(50_000);
    await redis.zrem(HandsRegistry.workers, 'w-lease');
  });

  it('refuses to bind when no worker is alive', async () => {
    const alone = createRedis(testRedisUrl(), { keyPrefix: redisKeyPrefix(`${env}x`) });
    try {
      await expect(
        new HandsBindings(alone, 60_000, new SystemClock()).bind('ten_1', 'sesn_none'),
      ).rejects.toMatchObject({
        code: 'UNAVAILABLE',
      });
    } finally {
      alone.disconnect();
    }
  });

  it('waits for a worker that registers within the wait (a restarted Redis), and gives up after it', async () => {
    const empty = createRedis(testRedisUrl(), { keyPrefix: redisKeyPrefix(`${env}w`) });
    try {
      const waiting = new HandsBindings(empty, 60_000, new SystemClock(), 5_000);
      const asked = vi.spyOn(empty, 'zrangebyscore');
      const bound = waiting.bind('ten_1', 'sesn_wait');
      // The worker's heartbeat reaches the emptied set after the call found it empty.
      await vi.waitFor(() => expect(asked).toHaveBeenCalled());
      await empty.zadd(HandsRegistry.workers, Date.now() + 60_000, 'w-late');
      expect((await bound).workerId).toBe('w-late');

      await empty.zrem(HandsRegistry.workers, 'w-late');
      const brief = new HandsBindings(empty, 60_000, new SystemClock(), 500);
      await expect(brief.bind('ten_1', 'sesn_nobody')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    } finally {
      await deleteRedisKeys(empty, redisKeyPrefix(`${env}w`));
      empty.disconnect();
    }
  });

  /** Workers that never answer (the one holding the session is about to die); records what each was sent. */
  function hangingWorkers(sent: Array<{ subject: string; request: HandsExecRequest }>): RpcClient {
    return {
      request: (subject: { subject: string }, request: HandsExecRequest) => {
        sent.push({ subject: subject.subject, request });
        return new Promise(() => undefined);
      },
    } as unknown as RpcClient;
  }

  function call(tool: HarnessTool, input: Record<string, unknown>, id: string): ToolInvocation {
    return {
      tool,
      input,
      context: {
        toolCallId: id,
        fs: {} as WorkspaceFs,
        signal: new AbortController().signal,
        sessionId: target.sessionId,
        agentId: 'agent_1',
        values: {},
      },
    };
  }

  it('answers a call whose worker died as possibly run, sends it nowhere else, and retries read-only tools elsewhere', async () => {
    const bindings = new HandsBindings(redis, 60_000, new SystemClock());
    const sessionTarget = { ...target, sessionId: 'sesn_crash' };
    await Promise.all(['w-a', 'w-b'].map(die));
    await beat('w-c');
    await beat('w-d');
    const holder = (await bindings.bind('ten_1', 'sesn_crash')).workerId;
    const sent: Array<{ subject: string; request: HandsExecRequest }> = [];
    const executor = new HandsToolExecutor(
      hangingWorkers(sent),
      sessionTarget,
      () => undefined,
      bindings,
      50,
    );
    const glob = AGENT_FILE_TOOLS.find((t) => t.name === 'glob')!;
    const bash: HarnessTool = { ...glob, name: 'bash' };

    const running = executor.execute(call(bash, { command: 'sleep 30' }, 'sevt_bash'));
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    await die(holder);
    // The worker never answers: the outcome comes from its death being seen.
    const outcome = await running;
    expect(outcome).toMatchObject({ status: 'error', reason: 'hands_lost' });
    expect(JSON.stringify(outcome)).toMatch(/may or may not have run/);
    expect(sent.map((s) => s.subject)).toEqual([`hands.exec.worker.${holder}`]);

    const survivor = holder === 'w-c' ? 'w-d' : 'w-c';
    await beat(holder);
    sent.length = 0;
    const reading = executor.execute(call(glob, { pattern: '*' }, 'sevt_glob'));
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    await die(holder);
    await beat(survivor);
    await vi.waitFor(() => expect(sent).toHaveLength(2), { timeout: 5_000 });
    void reading;
    expect(sent.map((s) => s.subject)).toEqual([
      `hands.exec.worker.${holder}`,
      `hands.exec.worker.${survivor}`,
    ]);
    expect(sent[1]!.request.bindingEpoch).toBeGreaterThan(sent[0]!.request.bindingEpoch!);
  });
});
