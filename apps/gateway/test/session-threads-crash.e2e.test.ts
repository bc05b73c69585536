import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  pollUntil,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';

type LoggedEvent = { id: string; type: string } & Record<string, unknown>;

interface Created {
  id: string;
}

interface Thread {
  id: string;
  parent_thread_id: string | null;
}

/** The sub-agent is still in its model call when the dataplane is killed. */
const SLOW_SCRIPT = { turns: [{ reply: [{ delayMs: 4_000, text: 'Checked: all clear.' }] }] };
const COORDINATOR_SCRIPT = {
  turns: [
    {
      match: '^check',
      reply: [
        {
          toolCall: {
            name: 'send_message_to_agent',
            input: { agent: 'checker', message: 'Check everything.' },
          },
        },
        'Asked the checker.',
      ],
    },
    { match: '^Checked:', reply: ['The checker is done.'] },
  ],
};

describe('a session thread survives a crashed dataplane', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;

  beforeAll(async () => {
    db = await createTestDatabase();
    // Five services start at once; on a busy host that can take longer than the default wait.
    platform = await launchPlatform({
      databaseUrl: db.url,
      env: { AGENTRY_LEASE_TTL_MS: '2000', AGENTRY_RECONCILE_INTERVAL_MS: '500' },
      readyTimeoutMs: 300_000,
    });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
  }, 400_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  /** A probe that fails (a service restarting) counts as "not yet". */
  const until = <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000) =>
    pollUntil(what, probe, timeoutMs, { retryErrors: true });
  const events = async (path: string): Promise<LoggedEvent[]> =>
    (await api.get<{ data: LoggedEvent[] }>(`${path}?limit=1000`)).body.data;

  it('resumes the thread mid-turn on the restarted dataplane and answers the primary once', async () => {
    const checker = await api.post<Created>('/v1/agents', {
      name: 'checker',
      model: { id: 'scripted', script: SLOW_SCRIPT },
    });
    const coordinator = await api.post<Created>('/v1/agents', {
      name: 'coordinator',
      model: { id: 'scripted', script: COORDINATOR_SCRIPT },
      multiagent: { type: 'coordinator', agents: [checker.body.id] },
    });
    const environment = await api.post<Created>('/v1/environments', {
      name: 'local',
      config: { type: 'local' },
    });
    const session = await api.post<Created>('/v1/sessions', {
      agent: coordinator.body.id,
      environment_id: environment.body.id,
    });
    const sessionId: string = session.body.id;
    await api.post(`/v1/sessions/${sessionId}/events`, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'check it' }] }],
    });

    const threadId = await until('the checker thread', async () => {
      const threads = (await api.get<{ data: Thread[] }>(`/v1/sessions/${sessionId}/threads`)).body.data;
      return threads.find((t) => t.parent_thread_id !== null)?.id;
    });
    const threadLog = `/v1/sessions/${sessionId}/threads/${threadId}/events`;
    await until('the thread in its model call', async () =>
      (await events(threadLog)).some((e) => e.type === 'span.model_request_start') ? true : undefined,
    );

    await platform.service('dataplane').kill('SIGKILL');
    platform.service('dataplane').start();
    await platform.service('dataplane').waitReady(300_000);

    const primary = await until(
      'the answer on the primary thread',
      async () => {
        const log = await events(`/v1/sessions/${sessionId}/events`);
        const answered = log.some(
          (e) => e.type === 'agent.message' && JSON.stringify(e.content).includes('The checker is done.'),
        );
        return answered && log.at(-1)?.type === 'session.status_idle' ? log : undefined;
      },
      120_000,
    );
    const own = await events(threadLog);
    expect(own.filter((e) => e.type === 'agent.message')).toHaveLength(1);
    expect(own.map((e) => e.type)).toContain('session.thread_status_rescheduled');
    expect(own.at(-1)?.type).toBe('session.thread_status_idle');
    expect(primary.filter((e) => e.type === 'agent.thread_message_received')).toHaveLength(1);
    expect(
      primary.filter(
        (e) => e.type === 'session.thread_status_rescheduled' && e.session_thread_id === threadId,
      ),
    ).toHaveLength(1);
    expect(primary.find((e) => e.type === 'agent.thread_message_received')).toMatchObject({
      from_session_thread_id: threadId,
      content: [{ type: 'text', text: 'Checked: all clear.' }],
    });
    expect((await api.get(`/v1/sessions/${sessionId}/threads/${threadId}`)).body).toMatchObject({
      status: 'idle',
    });
  }, 600_000);
});
