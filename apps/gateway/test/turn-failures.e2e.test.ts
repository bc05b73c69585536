import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  FakeAnthropicServer,
  FakeOpenAiServer,
  launchPlatform,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import { waitFor } from './outage-fixture.js';

/** A `session.error`'s error, as far as the test reads it. */
interface SessionError {
  type: string;
  message: string;
  retry_status: { type: string };
}

/** A listed event, as far as the test reads it. */
interface Listed {
  id: string;
  type: string;
  processed_at: string | null;
  error?: SessionError;
}

const isSessionError = (e: Listed): e is Listed & { error: SessionError } => e.type === 'session.error';

/** The part of the error envelope a refused request is checked by. */
interface ErrorEnvelope {
  error: { type: string; message: string };
}

interface Created {
  id: string;
}

const RETRIES = 2;
/** What the fake Anthropic asks for in `retry-after`, in seconds. */
const RETRY_AFTER_SECONDS = 1;
const CONFIGURED = 'Configured providers: scripted, anthropic, openai';

/** How the turn closed: its last `session.error` and the idle after it (a `session.usage` may sit between). */
const closing = (events: Listed[]): Listed[] =>
  events.filter((e) => e.type !== 'session.usage' && !e.type.startsWith('span.')).slice(-2);

const serverError = (): { kind: 'error'; status: number; body: unknown } => ({
  kind: 'error',
  status: 500,
  body: { error: { message: 'The server had an error while processing your request', type: 'server_error' } },
});

/**
 * Failures of a turn surface as CMA shows them and end with the session idle: a model the installation
 * cannot serve is refused when the agent is written, a failing provider is retried (each retry visible as
 * `session.error` with `retrying`) until `retries_exhausted`, a key removed after the agent was created ends
 * the turn with an error saying what to set; and no session is ever left running without a live turn.
 */
describe('turn failures surface, and nothing hangs', () => {
  let db: TestDatabase;
  let openai: FakeOpenAiServer;
  let anthropic: FakeAnthropicServer;
  let platform: RunningPlatform;
  let api: ApiClient;
  let client: Anthropic;
  let environmentId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    openai = await FakeOpenAiServer.start();
    anthropic = await FakeAnthropicServer.start();
    platform = await launchPlatform({
      databaseUrl: db.url,
      env: {
        OPENAI_BASE_URL: openai.baseUrl,
        OPENAI_API_KEY: 'sk-fake',
        ANTHROPIC_BASE_URL: anthropic.baseUrl,
        AGENTRY_MODEL_RETRIES: String(RETRIES),
        AGENTRY_MODEL_RETRY_BACKOFF_MS: '100',
        AGENTRY_MODEL_RETRY_MAX_DELAY_MS: '5000',
      },
    });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    client = new Anthropic({
      baseURL: platform.gatewayUrl,
      authToken: api.authHeaders.authorization!.slice(7),
      apiKey: null,
      maxRetries: 0,
    });
    const environment = await api.post<Created>('/v1/environments', {
      name: 'local',
      config: { type: 'local' },
    });
    expect(environment.status).toBe(200);
    environmentId = environment.body.id;
  });

  afterAll(async () => {
    await platform?.stop();
    await openai?.close();
    await anthropic?.close();
    await db?.drop();
  });

  /** Sends one message to a new session of a new agent on `model`, and returns its events once it is idle. */
  async function runOneTurn(model: string): Promise<Listed[]> {
    const agent = await api.post<Created>('/v1/agents', { name: `on ${model}`, model });
    expect(agent.status).toBe(200);
    return runTurnOf(agent.body.id);
  }

  async function runTurnOf(agentId: string): Promise<Listed[]> {
    const session = await client.beta.sessions.create({ agent: agentId, environment_id: environmentId });
    await client.beta.sessions.events.send(session.id, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'Hello?' }] }],
    });
    return waitFor(
      () => listEvents(session.id),
      (events) => events.some((e) => e.type === 'session.status_idle'),
      90_000,
      `session ${session.id} idle`,
    );
  }

  async function listEvents(sessionId: string): Promise<Listed[]> {
    const events: Listed[] = [];
    for await (const event of client.beta.sessions.events.list(sessionId, { limit: 1000 }))
      events.push(event as unknown as Listed);
    return events;
  }

  it('/v1 refuses to create or update an agent on a model it cannot serve, naming the configured providers', async () => {
    const noKey = await api.post<ErrorEnvelope>('/v1/agents', { name: 'qwen', model: 'dashscope/qwen-plus' });
    expect(noKey.status).toBe(400);
    expect(noKey.body.error.type).toBe('invalid_request_error');
    expect(noKey.body.error.message).toContain(CONFIGURED);
    expect(noKey.body.error.message).toContain('DASHSCOPE_API_KEY');

    const unknown = await client.beta.agents
      .create({ name: 'mystery', model: 'mystery/model-1' })
      .catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(Anthropic.BadRequestError);
    expect((unknown as Error).message).toContain('unknown model provider "mystery"');
    expect((unknown as Error).message).toContain(CONFIGURED);

    const agent = await client.beta.agents.create({ name: 'served', model: 'openai/gpt-4.1' });
    const update = await api.post<ErrorEnvelope>(`/v1/agents/${agent.id}`, {
      version: 1,
      model: 'dashscope/qwen-plus',
    });
    expect(update.status).toBe(400);
    expect(update.body.error.message).toContain(CONFIGURED);
    expect(await client.beta.agents.retrieve(agent.id)).toMatchObject({
      version: 1,
      model: { id: 'openai/gpt-4.1' },
    });
  });

  it('/api refuses the same, on the model field', async () => {
    const created = await api.post<ErrorEnvelope>('/api/agents', {
      name: 'qwen',
      model: 'dashscope/qwen-plus',
    });
    expect(created.status).toBe(400);
    expect(created.body.error).toMatchObject({ param: 'model' });
    expect(created.body.error.message).toContain(CONFIGURED);

    const agent = await api.post<Created>('/api/agents', { name: 'served', model: 'openai/gpt-4.1' });
    expect(agent.status).toBe(200);
    const updated = await api.request<ErrorEnvelope>('PUT', `/api/agents/${agent.body.id}`, {
      name: 'served',
      model: 'mystery/model-1',
    });
    expect(updated.status).toBe(400);
    expect(updated.body.error.message).toContain(CONFIGURED);
    expect((await api.get(`/api/agents/${agent.body.id}`)).body).toMatchObject({
      version: 1,
      model: 'openai/gpt-4.1',
    });
  });

  it('retries a provider answering 500, shows each retry, then ends idle with retries_exhausted', async () => {
    openai.reset();
    openai.enqueue(serverError(), serverError(), serverError());
    const events = await runOneTurn('openai/gpt-4.1');

    expect(openai.completionRequests).toHaveLength(RETRIES + 1);
    const errors = events.filter(isSessionError).map((e) => e.error);
    expect(errors.map((e) => e.retry_status.type)).toEqual(['retrying', 'retrying', 'exhausted']);
    const mentions500: unknown = expect.stringContaining('500');
    for (const error of errors)
      expect(error).toMatchObject({ type: 'model_request_failed_error', message: mentions500 });
    expect(closing(events)).toMatchObject([
      { type: 'session.error', error: { retry_status: { type: 'exhausted' } } },
      { type: 'session.status_idle', stop_reason: { type: 'retries_exhausted' } },
    ]);
  });

  it('waits as long as a 429 asks (retry-after) before each retry', async () => {
    anthropic.reset();
    const limited = FakeAnthropicServer.rateLimited(RETRY_AFTER_SECONDS);
    anthropic.enqueue(limited, limited, limited);
    const events = await runOneTurn('claude-sonnet-4-5');

    expect(anthropic.messageRequests).toHaveLength(RETRIES + 1);
    const errors = events.filter(isSessionError);
    expect(errors.map((e) => [e.error.type, e.error.retry_status.type])).toEqual([
      ['model_rate_limited_error', 'retrying'],
      ['model_rate_limited_error', 'retrying'],
      ['model_rate_limited_error', 'exhausted'],
    ]);
    // Each `retrying` is written before the wait; the next model request starts only after it.
    for (const retrying of errors.slice(0, RETRIES)) {
      const next = events.slice(events.indexOf(retrying)).find((e) => e.type === 'span.model_request_start')!;
      const waitedMs = Date.parse(next.processed_at!) - Date.parse(retrying.processed_at!);
      expect(waitedMs).toBeGreaterThanOrEqual(RETRY_AFTER_SECONDS * 1000 - 50);
    }
    expect(events.at(-1)).toMatchObject({
      type: 'session.status_idle',
      stop_reason: { type: 'retries_exhausted' },
    });
  });

  it('goes on with the turn when a retry succeeds', async () => {
    anthropic.reset();
    anthropic.enqueue(FakeAnthropicServer.rateLimited(0), { text: 'Back again.' });
    const events = await runOneTurn('claude-sonnet-4-5');

    expect(events.filter(isSessionError).map((e) => e.error.retry_status.type)).toEqual(['retrying']);
    expect(events.filter((e) => e.type === 'agent.message').at(-1)).toMatchObject({
      content: [{ type: 'text', text: 'Back again.' }],
    });
    expect(events.at(-1)).toMatchObject({ type: 'session.status_idle', stop_reason: { type: 'end_turn' } });
  });

  it('ends the turn with an error saying what to set when the key is gone at run time', async () => {
    const agent = await client.beta.agents.create({ name: 'keyed', model: 'openai/gpt-4.1' });
    const dataplane = platform.service('dataplane');
    await dataplane.stop();
    dataplane.start({ OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined });
    await dataplane.waitReady(120_000);

    const events = await runTurnOf(agent.id);
    const saysWhatToSet: unknown = expect.stringContaining('set OPENAI_API_KEY');
    expect(closing(events)).toMatchObject([
      {
        type: 'session.error',
        error: {
          type: 'model_request_failed_error',
          retry_status: { type: 'terminal' },
          message: saysWhatToSet,
        },
      },
      { type: 'session.status_idle', stop_reason: { type: 'retries_exhausted' } },
    ]);
    expect(closing(events)[0]!.error?.message).toContain('"openai/gpt-4.1" cannot be served');
  }, 240_000);

  it('leaves no session running without a live lease', async () => {
    const sessions = await db.prisma.$queryRaw<Array<{ id: string; status: string; live: boolean }>>`
      SELECT id, status::text AS status, coalesce(lease_expires_at > now(), false) AS live FROM sessions`;
    expect(sessions.length).toBeGreaterThanOrEqual(4);
    expect(sessions.filter((s) => s.status === 'running' && !s.live)).toEqual([]);
    expect(sessions.map((s) => s.status)).toEqual(sessions.map(() => 'idle'));
  });
});
