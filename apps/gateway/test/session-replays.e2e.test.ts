import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentryClient } from '@agentry/sdk';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  pollFor,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';

interface Side {
  final_message: string | null;
  tool_calls: Array<{ name: string; input: Record<string, unknown> }>;
  errors: unknown[];
  stop_reason: string | null;
  input_tokens: number;
  output_tokens: number;
  latency_ms: number | null;
}
interface Turn {
  index: number;
  user_message: string;
  original: Side;
  replay: Side | null;
  verdict: 'same' | 'changed' | 'failed';
}
interface Replay {
  id: string;
  source_session_id: string;
  replay_session_id: string | null;
  batch_id: string | null;
  agent: { id: string; version: number };
  status: 'running' | 'completed' | 'failed';
  error: string | null;
  comparison: { turns: Turn[]; summary: Record<string, number> } | null;
}
interface Batch {
  id: string;
  status: string;
  replays: Replay[];
  summary: {
    replays: number;
    running: number;
    completed: number;
    failed: number;
    turns: Record<string, number>;
  };
}
interface Created {
  id: string;
}

/** The part of the error envelope the refusals are checked by. */
interface ErrorEnvelope {
  error: { type: string; message: string };
}

interface LoggedEvent {
  id: string;
  type: string;
  stop_reason?: { type: string; event_ids?: string[] };
  content?: Array<{ text?: string }>;
}

/** A replay in the /api spelling, as far as the test reads it. */
interface MirroredReplay {
  comparison: { turns: Array<{ replay: { finalMessage: string | null } }> };
}

const write = (file_path: string, content: string) => ({
  toolCall: { name: 'write', input: { file_path, content } },
});
const lookup = { toolCall: { name: 'lookup', input: { key: 'gamma' } } };

/** Version 1 of the agent; version 2 answers `beta` and `two` otherwise and nothing else. */
const scriptV1 = [
  { match: '^alpha$', reply: [write('notes.txt', 'alpha'), 'wrote alpha'] },
  { match: '^beta$', reply: ['beta as before'] },
  { match: '^gamma$', reply: [lookup, 'looked up {{tool_results}}'] },
  { match: '^slow$', reply: [{ delayMs: 3_000, text: 'slow done' }] },
  { match: '^one$', reply: ['first answer'] },
  { match: '^two$', reply: ['second answer'] },
];
const scriptV2 = scriptV1.map((turn) =>
  turn.match === '^beta$'
    ? { match: '^beta$', reply: [write('beta.txt', 'beta'), 'beta has changed'] }
    : turn.match === '^two$'
      ? { match: '^two$', reply: ['second answer, changed'] }
      : turn,
);

/**
 * A recorded session's user inputs (messages, and the answers to calls that match by tool name and input)
 * run again against another agent version in a fresh session, compared turn by turn with the original.
 */
describe('session replays', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;
  let environmentId: string;
  let agentId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({ databaseUrl: db.url, env: { AGENTRY_REPLAY_LOCK_MS: '2000' } });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    const environment = await api.post<Created>('/v1/environments', {
      name: 'replays',
      config: { type: 'remote' },
    });
    expect(environment.status, JSON.stringify(environment.body)).toBe(200);
    environmentId = environment.body.id;
    const agent = await api.post<Created>('/v1/agents', {
      name: 'replayed',
      model: { id: 'scripted', script: { turns: scriptV1 } },
      tools: [
        { type: 'agent_toolset_20260401' },
        {
          type: 'custom',
          name: 'lookup',
          description: 'Looks a key up on the client.',
          input_schema: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
        },
      ],
    });
    expect(agent.status, JSON.stringify(agent.body)).toBe(200);
    agentId = agent.body.id;
    const v2 = await api.post<{ version: number }>(`/v1/agents/${agentId}`, {
      version: 1,
      model: { id: 'scripted', script: { turns: scriptV2 } },
    });
    expect(v2.status, JSON.stringify(v2.body)).toBe(200);
    expect(v2.body.version).toBe(2);
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  const events = async (sessionId: string): Promise<LoggedEvent[]> => {
    const listed = await api.get<{ data: LoggedEvent[] }>(`/v1/sessions/${sessionId}/events?limit=1000`);
    expect(listed.status).toBe(200);
    return listed.body.data;
  };
  const idles = async (sessionId: string) =>
    (await events(sessionId)).filter((e) => e.type === 'session.status_idle');

  async function newSession(version = 1): Promise<string> {
    const created = await api.post<Created>('/v1/sessions', {
      agent: { type: 'agent', id: agentId, version },
      environment_id: environmentId,
      metadata: { purpose: 'replay-source' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return created.body.id;
  }

  /** Sends `events` and waits for the session's next idle. */
  async function sendAndSettle(sessionId: string, sent: unknown[]): Promise<LoggedEvent> {
    const before = (await idles(sessionId)).length;
    const posted = await api.post(`/v1/sessions/${sessionId}/events`, { events: sent });
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    const settled = await pollFor(
      `session ${sessionId} to settle`,
      () => idles(sessionId),
      (i) => i.length > before,
      60_000,
    );
    return settled.at(-1)!;
  }
  const say = (sessionId: string, text: string) =>
    sendAndSettle(sessionId, [{ type: 'user.message', content: [{ type: 'text', text }] }]);

  async function finished(id: string, timeoutMs = 120_000): Promise<Replay> {
    return pollFor(
      `replay ${id} to finish`,
      async () => (await api.get<Replay>(`/v1/replays/${id}`)).body,
      (r) => r.status !== 'running',
      timeoutMs,
    );
  }

  /** Three turns: a built-in tool call, plain text, and a custom tool the client answered. */
  async function recordThreeTurns(): Promise<string> {
    const sessionId = await newSession();
    expect((await say(sessionId, 'alpha')).stop_reason?.type).toBe('end_turn');
    expect((await say(sessionId, 'beta')).stop_reason?.type).toBe('end_turn');
    const asked = await say(sessionId, 'gamma');
    expect(asked.stop_reason?.type).toBe('requires_action');
    const done = await sendAndSettle(sessionId, [
      {
        type: 'user.custom_tool_result',
        custom_tool_use_id: asked.stop_reason!.event_ids![0],
        content: [{ type: 'text', text: 'forty-two' }],
      },
    ]);
    expect(done.stop_reason?.type).toBe('end_turn');
    return sessionId;
  }

  it('replays three turns against a version that differs on turn 2: turns 1 and 3 same, turn 2 changed', async () => {
    const sourceId = await recordThreeTurns();

    const started = await api.post<Replay>(`/v1/sessions/${sourceId}/replay`, {
      agent: { id: agentId, version: 2 },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect(started.body).toMatchObject({
      source_session_id: sourceId,
      agent: { id: agentId, version: 2 },
      status: 'running',
      comparison: null,
    });

    const replay = await finished(started.body.id);
    expect(replay.status, replay.error ?? '').toBe('completed');
    const turns = replay.comparison!.turns;
    expect(turns.map((t) => [t.user_message, t.verdict])).toEqual([
      ['alpha', 'same'],
      ['beta', 'changed'],
      ['gamma', 'same'],
    ]);
    expect(replay.comparison!.summary).toEqual({ turns: 3, same: 2, changed: 1, failed: 0 });

    const [alpha, beta, gamma] = turns as [Turn, Turn, Turn];
    const wroteNotes = [{ name: 'write', input: { file_path: 'notes.txt', content: 'alpha' } }];
    expect(alpha.original.tool_calls).toEqual(wroteNotes);
    expect(alpha.replay!.tool_calls).toEqual(wroteNotes);
    expect(beta.original).toMatchObject({ final_message: 'beta as before', tool_calls: [] });
    expect(beta.replay).toMatchObject({
      final_message: 'beta has changed',
      tool_calls: [{ name: 'write', input: { file_path: 'beta.txt', content: 'beta' } }],
      stop_reason: 'end_turn',
      errors: [],
    });
    // The custom tool call was answered with the original's recorded result.
    expect(gamma.replay).toMatchObject({
      final_message: 'looked up forty-two',
      tool_calls: [{ name: 'lookup', input: { key: 'gamma' } }],
    });
    for (const side of [alpha.original, alpha.replay!, beta.replay!]) {
      expect(side.output_tokens).toBeGreaterThan(0);
      expect(side.latency_ms).not.toBeNull();
    }

    // The replay session is a normal session, marked as a replay of the source, with its own log.
    const session = await api.get(`/v1/sessions/${replay.replay_session_id}`);
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({
      environment_id: environmentId,
      agent: { id: agentId, version: 2 },
      metadata: { purpose: 'replay-source', agentry_replay_of: sourceId, agentry_replay_id: replay.id },
    });
    const replayLog = await events(replay.replay_session_id!);
    expect(replayLog.filter((e) => e.type === 'user.message')).toHaveLength(3);
    expect(replayLog.filter((e) => e.type === 'user.custom_tool_result')).toHaveLength(1);

    // The typed client reads it as the OpenAPI document types it.
    const typed = createAgentryClient({
      baseUrl: platform.gatewayUrl,
      token: api.authHeaders.authorization!.replace(/^Bearer /, ''),
    });
    const read = await typed.GET('/v1/replays/{id}', { params: { path: { id: replay.id } } });
    expect(read.data?.comparison?.summary).toEqual(replay.comparison!.summary);

    // Listed by source session, and readable in /api spelling.
    const listed = await api.get<{ data: Replay[] }>(`/v1/replays?session_id=${sourceId}`);
    expect(listed.body.data.map((r) => r.id)).toEqual([replay.id]);
    const mirrored = await api.get<MirroredReplay>(`/api/replays/${replay.id}`);
    expect(mirrored.status).toBe(200);
    expect(mirrored.body).toMatchObject({
      sourceSessionId: sourceId,
      replaySessionId: replay.replay_session_id,
      status: 'completed',
      comparison: { summary: { changed: 1 } },
    });
    expect(mirrored.body.comparison.turns[1]?.replay.finalMessage).toBe('beta has changed');
  }, 300_000);

  it('answers typed 4xx for unknown ids, a turn running and a batch size out of range', async () => {
    const sourceId = await newSession();
    const v2 = { agent: { id: agentId, version: 2 } };
    const expectError = (
      reply: { status: number; body: unknown },
      status: number,
      type: string,
      text: RegExp,
    ) => {
      expect(reply.status, JSON.stringify(reply.body)).toBe(status);
      const { error } = reply.body as ErrorEnvelope;
      expect(error.type).toBe(type);
      expect(error.message).toMatch(text);
    };
    expectError(
      await api.post('/v1/sessions/sesn_unknown/replay', v2),
      404,
      'not_found_error',
      /sesn_unknown/,
    );
    expectError(
      await api.post(`/v1/sessions/${sourceId}/replay`, { agent: { id: 'agent_unknown', version: 1 } }),
      404,
      'not_found_error',
      /agent_unknown/,
    );
    expectError(
      await api.post(`/v1/sessions/${sourceId}/replay`, { agent: { id: agentId, version: 9 } }),
      404,
      'not_found_error',
      /version 9/,
    );
    expectError(await api.post(`/v1/sessions/${sourceId}/replay`, {}), 400, 'invalid_request_error', /agent/);
    expectError(await api.get('/v1/replays/rpl_unknown'), 404, 'not_found_error', /rpl_unknown/);
    expectError(await api.get('/v1/replay_batches/rplb_unknown'), 404, 'not_found_error', /rplb_unknown/);
    expectError(
      await api.post('/v1/agents/agent_unknown/replays', { version: 1, last: 1 }),
      404,
      'not_found_error',
      /agent_unknown/,
    );
    expectError(
      await api.post(`/v1/agents/${agentId}/replays`, { version: 9, last: 1 }),
      404,
      'not_found_error',
      /version 9/,
    );
    for (const last of [0, 21, 2.5])
      expectError(
        await api.post(`/v1/agents/${agentId}/replays`, { version: 2, last }),
        400,
        'invalid_request_error',
        /last/,
      );

    // A turn running: 409, and no replay is recorded.
    const posted = await api.post(`/v1/sessions/${sourceId}/events`, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'slow' }] }],
    });
    expect(posted.status).toBe(200);
    await pollFor(
      'the slow turn to run',
      async () => (await api.get<{ status: string }>(`/v1/sessions/${sourceId}`)).body.status,
      (status) => status === 'running',
      30_000,
    );
    expectError(await api.post(`/v1/sessions/${sourceId}/replay`, v2), 409, 'conflict_error', /running/);
    expect((await api.get<{ data: Replay[] }>(`/v1/replays?session_id=${sourceId}`)).body.data).toEqual([]);
    // The /api mirror answers the same cases in its own envelope.
    expect((await api.post('/api/sessions/sesn_unknown/replay', v2)).status).toBe(404);
    expect((await api.post(`/api/agents/${agentId}/replays`, { version: 2, last: 21 })).status).toBe(400);
  }, 180_000);

  it("replays an agent's last five idle sessions as a batch whose summary counts its turns", async () => {
    const texts = ['one', 'two', 'one', 'two', 'one'];
    const sources: string[] = [];
    for (const text of texts) {
      const sessionId = await newSession();
      await say(sessionId, text);
      sources.push(sessionId);
    }

    const started = await api.post<Batch>(`/v1/agents/${agentId}/replays`, { version: 2, last: 5 });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect(started.body.replays).toHaveLength(5);
    expect(started.body.replays.map((r) => r.source_session_id).sort()).toEqual([...sources].sort());

    const batch = await pollFor(
      'the batch to complete',
      async () => (await api.get<Batch>(`/v1/replay_batches/${started.body.id}`)).body,
      (b) => b.status === 'completed',
      180_000,
    );
    expect(batch.summary).toEqual({
      replays: 5,
      running: 0,
      completed: 5,
      failed: 0,
      turns: { turns: 5, same: 3, changed: 2, failed: 0 },
    });
    for (const replay of batch.replays) {
      const source = texts[sources.indexOf(replay.source_session_id)];
      expect(replay.batch_id).toBe(batch.id);
      expect(replay.comparison!.turns.map((t) => t.verdict)).toEqual([source === 'one' ? 'same' : 'changed']);
    }
    const listed = await api.get<{ data: Replay[]; next_page: string | null }>(
      `/v1/replays?batch_id=${batch.id}&limit=2`,
    );
    expect(listed.body.data).toHaveLength(2);
    expect(listed.body.next_page).toEqual(expect.any(String));
    const mirrored = await api.get(`/api/replay-batches/${batch.id}`);
    expect(mirrored.body).toMatchObject({ id: batch.id, status: 'completed', summary: { completed: 5 } });
  }, 300_000);

  it('carries a replay through a restart of the scheduler, sending no input twice', async () => {
    const sourceId = await newSession();
    await say(sourceId, 'slow');
    await say(sourceId, 'slow');

    const started = await api.post<Replay>(`/v1/sessions/${sourceId}/replay`, {
      agent: { id: agentId, version: 2 },
    });
    expect(started.status).toBe(202);
    // Killed once the first turn is compared (progress) and the second one has its message.
    const halfway = await pollFor(
      'the first turn to be replayed',
      async () => (await api.get<Replay>(`/v1/replays/${started.body.id}`)).body,
      (r) => r.comparison?.turns.length === 1,
      60_000,
    );
    expect(halfway).toMatchObject({ status: 'running', comparison: { summary: { turns: 1, same: 1 } } });
    const replaySessionId = halfway.replay_session_id!;
    await pollFor(
      'the second replayed turn to start',
      () => events(replaySessionId),
      (log) => log.filter((e) => e.type === 'user.message').length === 2,
      60_000,
    );
    await platform.service('scheduler').kill('SIGKILL');
    platform.service('scheduler').start();
    await platform.service('scheduler').waitReady(60_000);

    const replay = await finished(started.body.id);
    expect(replay.status, replay.error ?? '').toBe('completed');
    expect(replay.comparison!.turns.map((t) => t.verdict)).toEqual(['same', 'same']);
    const replayLog = await events(replaySessionId);
    expect(replayLog.filter((e) => e.type === 'user.message')).toHaveLength(2);
    const sessions = await api.get<{ data: Array<{ metadata: Record<string, string> }> }>(
      `/v1/sessions?agent_id=${agentId}&limit=100`,
    );
    const replaysOfSource = sessions.body.data.filter((s) => s.metadata.agentry_replay_of === sourceId);
    expect(replaysOfSource).toHaveLength(1);
  }, 300_000);
});
