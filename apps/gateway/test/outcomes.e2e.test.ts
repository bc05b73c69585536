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

const verdict = (result: string, explanation: string) => JSON.stringify({ result, explanation });

/** An agent whose scripted model is also its grader: grader requests start with "OUTCOME EVALUATION". */
const REVISES_ONCE = {
  turns: [
    {
      match: '^OUTCOME EVALUATION[\\s\\S]*revised:',
      reply: [verdict('satisfied', 'Three lines, and the waves are there.')],
    },
    { match: '^OUTCOME EVALUATION', reply: [verdict('needs_revision', 'The haiku never mentions waves.')] },
    { match: '^\\[outcome grader\\]', reply: ['revised: waves fold the salt wind'] },
    { match: '^\\[outcome\\]', reply: ['draft: salt wind'] },
  ],
};

const NEVER_SATISFIED = {
  turns: [
    { match: '^OUTCOME EVALUATION', reply: [verdict('needs_revision', 'No proof yet.')] },
    {
      match: '^\\[outcome grader\\][\\s\\S]*no evaluation follows',
      reply: ['I could not prove it; here is where it stands.'],
    },
    { match: '^\\[outcome grader\\]', reply: ['another attempt'] },
    { match: '^\\[outcome\\]', reply: ['first attempt'] },
  ],
};

/** `user.define_outcome` through the official SDK: the grader loop, its span events and `outcome_evaluations[]`. */
describe('outcomes', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let client: Anthropic;
  let environmentId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({ databaseUrl: db.url, readyTimeoutMs: 400_000 });
    const api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    const token = api.authHeaders.authorization!.replace(/^Bearer /, '');
    client = new Anthropic({ baseURL: platform.gatewayUrl, authToken: token, apiKey: null, maxRetries: 2 });
    environmentId = (await client.beta.environments.create({ name: 'cloud', config: { type: 'cloud' } })).id;
  }, 450_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  const agentWith = async (script: unknown) =>
    (await client.beta.agents.create({ name: 'graded', model: { id: 'scripted', script } as never })).id;

  const history = async (sessionId: string) => {
    const all: LoggedEvent[] = [];
    for await (const event of client.beta.sessions.events.list(sessionId, { limit: 1000 }))
      all.push(event as unknown as LoggedEvent);
    return all;
  };

  const untilIdle = (sessionId: string, timeoutMs = 60_000) =>
    vi.waitFor(
      async () => {
        const log = await history(sessionId);
        if (!log.some((e) => e.type === 'session.status_idle'))
          throw new Error(`session ${sessionId} never went idle`);
        return log;
      },
      { timeout: timeoutMs, interval: 100 },
    );

  it('a grader that fails once then passes: two evaluations, the feedback revised, one idle at the end', async () => {
    const session = await client.beta.sessions.create({
      agent: await agentWith(REVISES_ONCE),
      environment_id: environmentId,
    });
    const [echo] = (
      await client.beta.sessions.events.send(session.id, {
        events: [
          {
            type: 'user.define_outcome',
            description: 'A haiku about the sea',
            rubric: { type: 'text', content: 'Three lines; mentions waves.' },
          },
        ],
      })
    ).data as unknown as LoggedEvent[];
    expect(echo).toMatchObject({ type: 'user.define_outcome', max_iterations: 3 });
    const outcomeId = String(echo!.outcome_id);
    expect(outcomeId).toMatch(/^outc_/);

    const log = await untilIdle(session.id);
    const spans = log.filter((e) => e.type.startsWith('span.outcome_evaluation'));
    const ends = spans.filter((e) => e.type === 'span.outcome_evaluation_end');
    expect(ends.map((e) => [e.iteration, e.result])).toEqual([
      [0, 'needs_revision'],
      [1, 'satisfied'],
    ]);
    expect(ends[0]!.explanation).toBe('The haiku never mentions waves.');
    for (const end of ends) {
      expect(end.outcome_id).toBe(outcomeId);
      const start = log.find((e) => e.id === end.outcome_evaluation_start_id)!;
      expect(start).toMatchObject({
        type: 'span.outcome_evaluation_start',
        outcome_id: outcomeId,
        iteration: end.iteration,
      });
      expect((end.usage as { input_tokens: number }).input_tokens).toBeGreaterThan(0);
    }
    expect(spans.some((e) => e.type === 'span.outcome_evaluation_ongoing')).toBe(true);

    // The agent worked, was graded, read the feedback, revised, and was graded again, all in one turn.
    const texts = log.filter((e) => e.type === 'agent.message').map((e) => JSON.stringify(e.content));
    expect(texts).toEqual([
      expect.stringContaining('draft: salt wind'),
      expect.stringContaining('revised: waves fold the salt wind'),
    ]);
    const order = log
      .map((e) => e.type)
      .filter(
        (t) =>
          t === 'agent.message' || t === 'span.outcome_evaluation_end' || t.startsWith('session.status_'),
      );
    expect(order).toEqual([
      'session.status_running',
      'agent.message',
      'span.outcome_evaluation_end',
      'agent.message',
      'span.outcome_evaluation_end',
      'session.status_idle',
    ]);
    expect(log.find((e) => e.type === 'session.status_idle')!.stop_reason).toEqual({ type: 'end_turn' });

    const retrieved = await client.beta.sessions.retrieve(session.id);
    expect(retrieved.status).toBe('idle');
    const aTimestamp: unknown = expect.any(String);
    expect(retrieved.outcome_evaluations).toEqual([
      {
        type: 'outcome_evaluation',
        outcome_id: outcomeId,
        description: 'A haiku about the sea',
        iteration: 1,
        result: 'satisfied',
        explanation: 'Three lines, and the waves are there.',
        completed_at: aTimestamp,
      },
    ]);
  }, 120_000);

  it('max_iterations reached: the last evaluation says so, the agent closes, the session idles', async () => {
    const session = await client.beta.sessions.create({
      agent: await agentWith(NEVER_SATISFIED),
      environment_id: environmentId,
      initial_events: [
        {
          type: 'user.define_outcome',
          description: 'Prove P != NP',
          rubric: { type: 'text', content: 'A complete proof.' },
          max_iterations: 2,
        },
      ],
    } as never);

    const log = await untilIdle(session.id);
    const ends = log.filter((e) => e.type === 'span.outcome_evaluation_end');
    expect(ends.map((e) => [e.iteration, e.result])).toEqual([
      [0, 'needs_revision'],
      [1, 'max_iterations_reached'],
    ]);
    const texts = log.filter((e) => e.type === 'agent.message').map((e) => JSON.stringify(e.content));
    expect(texts).toHaveLength(3);
    expect(texts[2]).toContain('I could not prove it');
    expect(log.filter((e) => e.type === 'session.status_idle')).toHaveLength(1);

    const retrieved = await client.beta.sessions.retrieve(session.id);
    expect(retrieved.status).toBe('idle');
    expect(retrieved.outcome_evaluations).toMatchObject([
      { iteration: 1, result: 'max_iterations_reached', explanation: 'No proof yet.' },
    ]);
    expect(retrieved.outcome_evaluations[0]!.completed_at).not.toBeNull();
  }, 120_000);

  it('a bad define_outcome is a typed 400 that says what is wrong, and nothing is appended', async () => {
    const session = await client.beta.sessions.create({
      agent: await agentWith(REVISES_ONCE),
      environment_id: environmentId,
    });
    const bad: Array<[unknown, RegExp]> = [
      [
        {
          type: 'user.define_outcome',
          description: 'x',
          rubric: { type: 'text', content: 'y' },
          max_iterations: 21,
        },
        /max_iterations/,
      ],
      [{ type: 'user.define_outcome', description: 'x' }, /rubric/],
      [
        { type: 'user.define_outcome', description: '', rubric: { type: 'text', content: 'y' } },
        /description/,
      ],
      [
        { type: 'user.define_outcome', description: 'x', rubric: { type: 'file', file_id: 'file_missing' } },
        /rubric\.file_id: file file_missing not found/,
      ],
    ];
    for (const [event, message] of bad) {
      const error = await client.beta.sessions.events
        .send(session.id, { events: [event as never] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Anthropic.BadRequestError);
      const body = (error as InstanceType<typeof Anthropic.BadRequestError>).error as {
        error: { type: string; message: string };
      };
      expect(body.error.type).toBe('invalid_request_error');
      expect(body.error.message).toMatch(message);
    }
    expect(await history(session.id)).toEqual([]);
    expect((await client.beta.sessions.retrieve(session.id)).outcome_evaluations).toEqual([]);
  }, 60_000);
});
