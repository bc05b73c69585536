import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  SseClient,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';

/** Each agent answers after a pause long enough to restart the scheduler in the middle of the run. */
const slowly = (text: string, delayMs: number) => ({
  id: 'scripted',
  script: { turns: [{ reply: [{ delayMs, text }] }] },
});

type RunEntry = {
  agentId: string;
  sessionId: string | null;
  status: string;
  reply: string | null;
  error: string | null;
};
type Run = { id: string; status: string; results: RunEntry[] };

/** The part of the error envelope the refusal is checked by. */
interface ErrorEnvelope {
  error: { message: string };
}

/** `/api/multiagent/run` as a durable job: answered at once when asked to, and carried through a scheduler restart. */
describe('durable multi-agent runs', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;
  let environmentId: string;

  const agent = async (name: string, model: unknown) =>
    (await api.post<{ id: string }>('/v1/agents', { name, model })).body.id;
  const runOf = async (id: string) => (await api.get<Run>(`/api/multiagent/runs/${id}`)).body;
  const completed = async (id: string, timeoutMs = 60_000) => {
    await expect
      .poll(async () => (await runOf(id)).status, { timeout: timeoutMs, interval: 250 })
      .toBe('completed');
    return runOf(id);
  };
  const sessionCount = async () => (await api.get<unknown[]>('/api/sessions')).body.length;
  const sessionsOf = async (run: Run) => {
    const ids = run.results.map((r) => r.sessionId);
    const listed = await api.get<{ data: Array<{ id: string }> }>('/v1/sessions?limit=100');
    return listed.body.data.filter((s) => ids.includes(s.id));
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({ databaseUrl: db.url, env: { AGENTRY_MULTIAGENT_LOCK_MS: '2000' } });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    environmentId = (await api.post<{ id: string }>('/api/environments', { name: 'fan-out', type: 'remote' }))
      .body.id;
  });

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  it('answers 202 at once with Prefer: respond-async, then finishes with one result per agent', async () => {
    const first = await agent('first', slowly('first done', 1_500));
    const second = await agent('second', slowly('second done', 1_500));
    const accepted = await api.post<Run>(
      '/api/multiagent/run',
      { agentIds: [first, second], message: 'go', environmentId, parallel: true },
      { prefer: 'respond-async' },
    );
    // At once: the answer comes before either agent's 1.5 s reply, with both results still pending.
    expect(accepted.status).toBe(202);
    expect(accepted.headers.get('location')).toBe(`/api/multiagent/runs/${accepted.body.id}`);
    const aRunId: unknown = expect.stringMatching(/^marun_/);
    expect(accepted.body).toMatchObject({ id: aRunId, status: 'queued' });
    expect(accepted.body.results.map((r) => r.status)).toEqual(['pending', 'pending']);

    const stream = await SseClient.open(
      `${platform.gatewayUrl}/api/multiagent/runs/${accepted.body.id}/stream`,
      api.authHeaders,
    );
    const run = await completed(accepted.body.id);
    const aSessionId: unknown = expect.stringMatching(/^sesn_/);
    expect(run.results).toEqual([
      {
        agentId: first,
        sessionId: aSessionId,
        status: 'idle',
        reply: 'first done',
        error: null,
      },
      {
        agentId: second,
        sessionId: aSessionId,
        status: 'idle',
        reply: 'second done',
        error: null,
      },
    ]);
    const frames = await stream.waitFor((f) =>
      f.some((x) => (JSON.parse(x.data) as Run).status === 'completed'),
    );
    const seen = frames.map((f) => JSON.parse(f.data) as Run);
    expect(frames.every((f) => f.event === 'run')).toBe(true);
    expect(seen.at(-1)).toEqual(expect.objectContaining({ status: 'completed', results: run.results }));
    // The stream showed the run on its way, not only its end.
    expect(seen.some((s) => s.results.some((r) => r.status === 'running'))).toBe(true);
    await stream.close();
  });

  it('keeps the synchronous answer without the header', async () => {
    const only = await agent('only', 'scripted');
    const ran = await api.post('/api/multiagent/run', {
      agentIds: [only],
      message: 'status?',
      environmentId,
    });
    expect(ran.status).toBe(200);
    const aSessionId: unknown = expect.any(String);
    expect(ran.body).toEqual({
      results: [
        {
          agentId: only,
          sessionId: aSessionId,
          status: 'idle',
          reply: 'You said: status?',
          error: null,
        },
      ],
    });
  });

  it('loses nothing when the scheduler restarts mid-run: every agent answers once, no session twice', async () => {
    const agents = [await agent('a', slowly('a done', 4_000)), await agent('b', slowly('b done', 4_000))];
    const accepted = await api.post<Run>(
      '/api/multiagent/run',
      { agentIds: agents, message: 'go', environmentId, parallel: true },
      { prefer: 'respond-async' },
    );
    expect(accepted.status).toBe(202);
    // Mid-run: both sessions exist and are in their turn.
    await expect
      .poll(async () => (await runOf(accepted.body.id)).results.every((r) => r.status === 'running'), {
        timeout: 30_000,
        interval: 100,
      })
      .toBe(true);
    await platform.service('scheduler').kill('SIGKILL');
    platform.service('scheduler').start();
    await platform.service('scheduler').waitReady(60_000);

    const run = await completed(accepted.body.id);
    expect(run.results.map((r) => [r.status, r.reply])).toEqual([
      ['idle', 'a done'],
      ['idle', 'b done'],
    ]);
    expect(await sessionsOf(run)).toHaveLength(2);
    for (const { sessionId } of run.results) {
      const events = await api.get<{ data: Array<{ type: string }> }>(
        `/v1/sessions/${sessionId}/events?limit=1000`,
      );
      const types = events.body.data.map((e) => e.type);
      expect(types.filter((t) => t === 'user.message')).toHaveLength(1);
      expect(types.filter((t) => t === 'agent.message')).toHaveLength(1);
    }
  });

  it('refuses a run naming an agent the caller cannot see, creating nothing; an unknown run is 404', async () => {
    const mine = await agent('mine', 'scripted');
    const before = await sessionCount();
    const refused = await api.post<ErrorEnvelope>(
      '/api/multiagent/run',
      { agentIds: [mine, 'agent_not_mine'], message: 'hi', environmentId },
      { prefer: 'respond-async' },
    );
    expect(refused.status).toBe(404);
    expect(refused.body.error.message).toContain('agent_not_mine');
    expect(await sessionCount()).toBe(before);
    expect((await api.get('/api/multiagent/runs/marun_missing')).status).toBe(404);
    expect((await api.get('/api/multiagent/runs/marun_missing/stream')).status).toBe(404);
  });

  it('takes the deadline from the request: a short one times the run out, an asynchronous one may last hours', async () => {
    type Timed = Run & { createdAt: string; deadlineAt: string };
    // The deadline is set by the scheduler's clock, the creation time by the database's: a few ms apart.
    const span = (run: Timed) => Math.round((Date.parse(run.deadlineAt) - Date.parse(run.createdAt)) / 1_000);
    const sleeper = await agent('sleeper', slowly('too late', 60_000));
    const short = await api.post<Timed>(
      '/api/multiagent/run',
      { agentIds: [sleeper], message: 'go', environmentId, timeoutSeconds: 2 },
      { prefer: 'respond-async' },
    );
    expect(short.status).toBe(202);
    expect(span(short.body)).toBe(2);
    const timedOut = await completed(short.body.id, 30_000);
    expect(timedOut.results.map((r) => r.status)).toEqual(['timeout']);

    const quick = await agent('quick', 'scripted');
    const long = await api.post<Timed>(
      '/api/multiagent/run',
      { agentIds: [quick], message: 'hi', environmentId, timeoutSeconds: 7_200 },
      { prefer: 'respond-async' },
    );
    expect(long.status).toBe(202);
    expect(span(long.body)).toBe(7_200);
    expect((await completed(long.body.id)).results.map((r) => r.status)).toEqual(['idle']);

    // A request that waits for its run cannot wait that long, and a day is the most any run may ask for.
    const before = await sessionCount();
    const waiting = await api.post('/api/multiagent/run', {
      agentIds: [quick],
      message: 'hi',
      environmentId,
      timeoutSeconds: 7_200,
    });
    expect(waiting.status).toBe(400);
    expect(JSON.stringify(waiting.body)).toContain('timeoutSeconds');
    const tooLong = await api.post(
      '/api/multiagent/run',
      { agentIds: [quick], message: 'hi', environmentId, timeoutSeconds: 86_401 },
      { prefer: 'respond-async' },
    );
    expect(tooLong.status).toBe(400);
    expect(JSON.stringify(tooLong.body)).toContain('timeoutSeconds');
    expect(await sessionCount()).toBe(before);
  });
});
