import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';

type LoggedEvent = { id: string; type: string } & Record<string, unknown>;

const SCRIPT = {
  turns: [
    { match: '^slow', reply: [{ delayMs: 3_000, text: 'Finished on another dataplane.' }] },
    { match: '.', reply: ['Hello.'] },
  ],
};

/** The statuses CMA names besides idle and running: `terminated` and `rescheduling`, each with its event. */
describe('session status machine', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let client: Anthropic;

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({
      databaseUrl: db.url,
      env: { AGENTRY_LEASE_TTL_MS: '2000', AGENTRY_RECONCILE_INTERVAL_MS: '500' },
    });
    const api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    const token = api.authHeaders.authorization!.replace(/^Bearer /, '');
    client = new Anthropic({ baseURL: platform.gatewayUrl, authToken: token, apiKey: null, maxRetries: 2 });
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  const history = async (sessionId: string) => {
    const all: LoggedEvent[] = [];
    for await (const event of client.beta.sessions.events.list(sessionId, { limit: 1000 }))
      all.push(event as unknown as LoggedEvent);
    return all;
  };

  const waitForEvent = (sessionId: string, type: string, count = 1, timeoutMs = 60_000) =>
    vi.waitFor(
      async () => {
        const log = await history(sessionId);
        if (log.filter((e) => e.type === type).length < count)
          throw new Error(`session ${sessionId} never showed ${type} x${count}`);
        return log;
      },
      { timeout: timeoutMs, interval: 100 },
    );

  const say = (sessionId: string, text: string) =>
    client.beta.sessions.events.send(sessionId, {
      events: [{ type: 'user.message', content: [{ type: 'text', text }] }],
    });

  const newSession = async () => {
    const agent = await client.beta.agents.create({
      name: 'greeter',
      model: { id: 'scripted', script: SCRIPT } as never,
    });
    const environment = await client.beta.environments.create({
      name: `env-${Date.now()}`,
      config: { type: 'cloud' },
    });
    const session = await client.beta.sessions.create({ agent: agent.id, environment_id: environment.id });
    return { agentId: agent.id, environmentId: environment.id, sessionId: session.id };
  };

  it.each([
    [
      'environment',
      (ids: { environmentId: string; agentId: string }) =>
        client.beta.environments.archive(ids.environmentId),
    ],
    ['agent', (ids: { environmentId: string; agentId: string }) => client.beta.agents.archive(ids.agentId)],
  ] as const)(
    'a session whose %s was archived is terminated when its next turn starts, saying why',
    async (kind, archive) => {
      const ids = await newSession();
      await say(ids.sessionId, 'hi');
      await waitForEvent(ids.sessionId, 'session.status_idle');

      await archive(ids);
      await say(ids.sessionId, 'hi again');
      const log = await waitForEvent(ids.sessionId, 'session.status_terminated');
      expect((await client.beta.sessions.retrieve(ids.sessionId)).status).toBe('terminated');
      const error = log.find((e) => e.type === 'session.error') as
        { error: { message: string; retry_status: { type: string } } } | undefined;
      expect(error?.error.message).toContain(
        `${kind} ${kind === 'agent' ? ids.agentId : ids.environmentId} was archived`,
      );
      expect(error?.error.retry_status).toEqual({ type: 'terminal' });
      // No turn ran on the orphaned session, and its input was consumed rather than left to be retried.
      expect(log.filter((e) => e.type === 'span.model_request_start')).toHaveLength(1);
      expect(log.filter((e) => e.type === 'agent.message')).toHaveLength(1);
      expect(log.every((e) => e.processed_at !== null)).toBe(true);
      expect(log.at(-1)?.type).toBe('session.status_terminated');
    },
    120_000,
  );

  it('a turn taken over after its dataplane died goes rescheduling, then running, and finishes', async () => {
    const { sessionId } = await newSession();
    await say(sessionId, 'slow answer please');
    await waitForEvent(sessionId, 'span.model_request_start');

    await platform.service('dataplane').kill('SIGKILL');
    platform.service('dataplane').start();
    await platform.service('dataplane').waitReady(90_000);

    const log = await waitForEvent(sessionId, 'session.status_idle');
    const statuses = log.map((e) => e.type).filter((t) => t.startsWith('session.status_'));
    expect(statuses).toEqual([
      'session.status_running',
      'session.status_rescheduled',
      'session.status_running',
      'session.status_idle',
    ]);
    expect(log.filter((e) => e.type === 'agent.message').map((e) => JSON.stringify(e.content))).toEqual([
      expect.stringContaining('Finished on another dataplane.'),
    ]);
    expect((await client.beta.sessions.retrieve(sessionId)).status).toBe('idle');
  }, 180_000);
});
