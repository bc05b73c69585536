import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis } from '@agentry/platform';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  startOwnedRedis,
  type OwnedProcess,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import { agentMessages, completeTurn, exited, openSession, waitFor } from './outage-fixture.js';

interface Created {
  id: string;
}

interface MessageList {
  data: Array<{ type: string; content?: Array<{ text: string }> }>;
}

const SLOW_ANSWER = {
  turns: [{ reply: [{ delayMs: 3_000, text: 'Finished after Redis came back empty.' }] }],
};

describe('a Redis restart that loses every key', () => {
  let logDir: string;
  let redis: OwnedProcess;
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;
  let redisUrl: string;

  /** Ids of the cron job schedulers the platform keeps for deployments, read straight from Redis. */
  const cronSchedulers = async (): Promise<string[]> => {
    const client = createRedis(redisUrl);
    try {
      return await client.zrange(`agentry:${platform.runId}:bull:deployment-fire:repeat`, '0', '-1');
    } finally {
      client.disconnect();
    }
  };

  beforeAll(async () => {
    logDir = mkdtempSync(join(tmpdir(), 'agentry-redis-outage-'));
    const owned = await startOwnedRedis(logDir);
    redis = owned.server;
    redisUrl = owned.url;
    db = await createTestDatabase();
    platform = await launchPlatform({
      databaseUrl: db.url,
      redisUrl: owned.url,
      env: { AGENTRY_LEASE_TTL_MS: '2000', AGENTRY_RECONCILE_INTERVAL_MS: '500' },
    });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
  });

  afterAll(async () => {
    await platform?.stop();
    await redis?.stop();
    await db?.drop();
    if (logDir) rmSync(logDir, { recursive: true, force: true });
  });

  it('still re-kicks an abandoned turn and fires cron deployments: nothing needs a restart of the scheduler', async () => {
    const warm = await openSession(api);
    await completeTurn(api, warm, 'before', 30_000);
    const env = await api.post<Created>('/api/environments', { name: 'cron env', type: 'remote' });
    const agentForCron = await api.post<Created>('/api/agents', { name: 'nightly', model: 'scripted' });
    const deployment = await api.post<Created>('/api/deployments', {
      name: 'nightly',
      agentId: agentForCron.body.id,
      environmentId: env.body.id,
      triggerType: 'cron',
      cronExpression: '0 3 * * *',
      timezone: 'UTC',
      text: 'run',
    });
    expect(deployment.status).toBe(200);
    const cronId = `deployment:${deployment.body.id}`;
    await waitFor(cronSchedulers, (ids) => ids.includes(cronId), 10_000, 'cron scheduler installed');

    const agent = await api.post<Created>('/v1/agents', {
      name: 'slow',
      model: { id: 'scripted', script: SLOW_ANSWER },
    });
    const environment = await api.post<Created>('/v1/environments', {
      name: 'local',
      config: { type: 'local' },
    });
    const sessionId = (
      await api.post<Created>('/v1/sessions', { agent: agent.body.id, environment_id: environment.body.id })
    ).body.id;
    await api.post(`/v1/sessions/${sessionId}/events`, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'go' }] }],
    });
    await waitFor(
      async () => (await api.get<{ status: string }>(`/v1/sessions/${sessionId}`)).body.status,
      (s) => s === 'running',
      10_000,
      'turn start',
    );

    // The turn's runner dies, and Redis restarts with nothing in it: no drain job, no job scheduler.
    await platform.service('dataplane').kill('SIGKILL');
    await redis.stop('SIGKILL');
    await redis.start();
    platform.service('dataplane').start();
    await platform.service('dataplane').waitReady(60_000);

    await waitFor(
      () => agentMessages(api, sessionId),
      (n) => n === 1,
      30_000,
      'the abandoned turn',
    );
    await waitFor(cronSchedulers, (ids) => ids.includes(cronId), 10_000, 'cron scheduler re-installed');
    await waitFor(
      async () => (await api.get<{ status: string }>(`/v1/sessions/${sessionId}`)).body.status,
      (s) => s === 'idle',
      15_000,
      'session idle',
    );
    await completeTurn(api, warm, 'after', 30_000);
    expect(exited(platform)).toEqual([]);
  });

  it('accepts a message while Redis is away, once, and answers it once Redis is back', async () => {
    const sessionId = await openSession(api);
    await completeTurn(api, sessionId, 'warm up', 30_000);
    await redis.stop('SIGKILL');
    try {
      const sent = await api.post(`/v1/sessions/${sessionId}/events`, {
        events: [{ type: 'user.message', content: [{ type: 'text', text: 'while Redis is away' }] }],
      });
      // Committed is accepted: an error here would make the client send the message a second time.
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    } finally {
      await redis.start();
    }
    await waitFor(
      () => agentMessages(api, sessionId),
      (n) => n === 2,
      30_000,
      'the answer',
    );
    const listed = await api.get<MessageList>(`/v1/sessions/${sessionId}/events?limit=1000`);
    const texts = listed.body.data.filter((e) => e.type === 'user.message').map((e) => e.content?.[0]?.text);
    expect(texts).toEqual(['warm up', 'while Redis is away']);
    expect(exited(platform)).toEqual([]);
  });
});
