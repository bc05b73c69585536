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

/** An agent on /api, with the tool configs the seed gave it. */
interface Agent extends Created {
  tools: Array<{ configs: Array<{ name: string }> }>;
}

interface Thread {
  id: string;
  parent_thread_id: string | null;
  status: string;
}

/** Each member is still in its model call when the dataplane is killed. */
const memberScript = (answer: string) => ({ turns: [{ reply: [{ delayMs: 15_000, text: answer }] }] });
const LEAD_SCRIPT = {
  turns: [
    {
      match: '^review',
      reply: [
        {
          toolCalls: [
            {
              name: 'sessions_spawn',
              input: { agent: 'Repo Surgeon', task: 'Review the workspace for release risks.' },
            },
            { name: 'sessions_spawn', input: { agent: 'Ops Publisher', task: 'Draft the release ticket.' } },
          ],
        },
        'Both members are working.',
      ],
    },
    {
      match: '^collect',
      reply: [
        { toolCall: { name: 'wait_async_results', input: { timeout_seconds: 120, wait_all: true } } },
        { toolCall: { name: 'sessions_pending_completions', input: {} } },
        'Checklist ready.',
      ],
    },
  ],
};

/** The seed's Team Lead: spawns two members in the background, ends its turn, and collects both later. */
describe('Team Lead background child sessions', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;

  beforeAll(async () => {
    db = await createTestDatabase();
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
  const text = (e: LoggedEvent) =>
    ((e.content ?? []) as Array<{ text?: string }>).map((c) => c.text ?? '').join('');

  /** A member as the seed writes it on /api, then given its scripted model on /v1. */
  const member = async (name: string, answer: string): Promise<string> => {
    const created = await api.post<Created>('/api/agents', {
      name,
      model: 'scripted',
      tools: [
        {
          type: 'agent_toolset',
          defaultConfig: { enabled: true, permissionPolicy: { type: 'always_allow' } },
          configs: [{ name: 'read_file', enabled: true }],
        },
      ],
    });
    expect(created.status).toBe(200);
    const scripted = await api.post(`/v1/agents/${created.body.id}`, {
      version: 1,
      model: { id: 'scripted', script: memberScript(answer) },
    });
    expect(scripted.status).toBe(200);
    return created.body.id;
  };

  it('collects both results in a later turn, across a dataplane restart, each once', async () => {
    const repo = await member('Repo Surgeon', 'Repo: no release risks found.');
    const ops = await member('Ops Publisher', 'Ops: release ticket drafted.');
    const lead = await api.post<Agent>('/api/agents', {
      name: 'Team Lead',
      model: 'scripted',
      system: 'You coordinate Repo Surgeon and Ops Publisher.',
      tools: [
        {
          type: 'agent_toolset',
          defaultConfig: { enabled: true, permissionPolicy: { type: 'always_allow' } },
          configs: [
            { name: 'sessions_spawn', enabled: true },
            { name: 'sessions_list', enabled: true },
            { name: 'sessions_pending_completions', enabled: true },
            { name: 'wait_async_results', enabled: true },
          ],
        },
      ],
      multiagent: {
        type: 'agent_team',
        agents: [
          { type: 'agent', id: repo },
          { type: 'agent', id: ops },
        ],
      },
    });
    expect(lead.status).toBe(200);
    expect(lead.body.tools[0]?.configs.map((c) => c.name)).toEqual([
      'sessions_spawn',
      'sessions_list',
      'sessions_pending_completions',
      'wait_async_results',
    ]);
    expect(
      (
        await api.post(`/v1/agents/${lead.body.id}`, {
          version: 1,
          model: { id: 'scripted', script: LEAD_SCRIPT },
        })
      ).status,
    ).toBe(200);

    const environment = await api.post<Created>('/v1/environments', {
      name: 'local',
      config: { type: 'local' },
    });
    const session = await api.post<Created>('/v1/sessions', {
      agent: lead.body.id,
      environment_id: environment.body.id,
    });
    const sessionId: string = session.body.id;
    const primaryLog = `/v1/sessions/${sessionId}/events`;
    const say = (message: string) =>
      api.post(primaryLog, {
        events: [{ type: 'user.message', content: [{ type: 'text', text: message }] }],
      });

    // Turn 1: two spawns, answered at once, and the turn ends while the members still work.
    await say('review the release');
    const firstTurn = await until(
      'the first turn to end',
      async () => {
        const log = await events(primaryLog);
        // Idle after the answer; the members' thread events may follow it on the primary stream.
        const answered = log.findIndex(
          (e) => e.type === 'agent.message' && text(e).includes('Both members are working.'),
        );
        return answered >= 0 && log.slice(answered).some((e) => e.type === 'session.status_idle')
          ? log
          : undefined;
      },
      180_000,
    );
    const spawnResults = firstTurn.filter((e) => e.type === 'agent.tool_result');
    expect(spawnResults).toHaveLength(2);
    const taskIds = spawnResults.map((e) => /task_id: (\S+)/.exec(text(e))![1]!);
    const threads = (await api.get<{ data: Thread[] }>(`/v1/sessions/${sessionId}/threads`)).body.data;
    expect(
      threads
        .filter((t) => t.parent_thread_id !== null)
        .map((t) => t.id)
        .sort(),
    ).toEqual([...taskIds].sort());
    await until('both members in their model call', async () => {
      const busy = await Promise.all(
        taskIds.map(async (id) =>
          (await events(`/v1/sessions/${sessionId}/threads/${id}/events`)).some(
            (e) => e.type === 'span.model_request_start',
          ),
        ),
      );
      return busy.every(Boolean) ? true : undefined;
    });
    const stillWorking = (await api.get<{ data: Thread[] }>(`/v1/sessions/${sessionId}/threads`)).body.data;
    expect(stillWorking.filter((t) => taskIds.includes(t.id)).map((t) => t.status)).toEqual([
      'running',
      'running',
    ]);

    await platform.service('dataplane').kill('SIGKILL');
    platform.service('dataplane').start();
    await platform.service('dataplane').waitReady(300_000);

    // Turn 2: wait_async_results returns both results; a second collection finds nothing left.
    await say('collect the results');
    const log = await until(
      'the second turn to end',
      async () => {
        const all = await events(primaryLog);
        const answered = all.findIndex(
          (e) => e.type === 'agent.message' && text(e).includes('Checklist ready.'),
        );
        return answered >= 0 && all.slice(answered).some((e) => e.type === 'session.status_idle')
          ? all
          : undefined;
      },
      240_000,
    );
    const uses = log.filter((e) => e.type === 'agent.tool_use');
    const results = log.filter((e) => e.type === 'agent.tool_result');
    expect(uses.map((e) => e.name)).toEqual([
      'sessions_spawn',
      'sessions_spawn',
      'wait_async_results',
      'sessions_pending_completions',
    ]);
    for (const use of uses) expect(results.filter((r) => r.tool_use_id === use.id)).toHaveLength(1);
    expect(results).toHaveLength(uses.length);
    const waited = results.find((r) => r.tool_use_id === uses[2]!.id)!;
    expect(waited.is_error).toBeFalsy();
    expect(text(waited)).toContain('Repo: no release risks found.');
    expect(text(waited)).toContain('Ops: release ticket drafted.');
    for (const id of taskIds) expect(text(waited)).toContain(id);
    const pending = results.find((r) => r.tool_use_id === uses[3]!.id)!;
    expect(text(pending)).toContain('No finished child sessions waiting.');
    expect(text(pending)).not.toContain('Repo:');

    // Each member ran its turn once, resumed on the restarted dataplane.
    for (const id of taskIds) {
      const own = await events(`/v1/sessions/${sessionId}/threads/${id}/events`);
      expect(own.filter((e) => e.type === 'agent.message')).toHaveLength(1);
      expect(own.map((e) => e.type)).toContain('session.thread_status_rescheduled');
      expect(own.at(-1)?.type).toBe('session.thread_status_idle');
    }
  }, 600_000);
});
