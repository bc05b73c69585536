import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  pollFor,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';

interface Event {
  id: string;
  type: string;
  created_at: string;
  tool_use_id?: string;
  is_error?: boolean;
  content?: Array<{ text?: string }>;
}

const NO_RUNNER_MS = 1500;
const textOf = (e: Event) => (e.content ?? []).map((c) => c.text ?? '').join('');

/**
 * A session names its creator (`created_by`, in the SDK's caller-identity shapes), and in a self-hosted
 * environment a tool call no worker takes within the configured time gets an error result: the turn goes on.
 */
describe('session creator and the no-runner rule', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;
  let client: Anthropic;
  let agentId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({
      databaseUrl: db.url,
      env: { AGENTRY_NO_RUNNER_TIMEOUT_MS: String(NO_RUNNER_MS), AGENTRY_RECONCILE_INTERVAL_MS: '500' },
    });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    const token = api.authHeaders.authorization!.replace(/^Bearer /, '');
    client = new Anthropic({ baseURL: platform.gatewayUrl, authToken: token, apiKey: null, maxRetries: 0 });
    const agent = await api.post<{ id: string }>('/v1/agents', {
      name: 'self-hosted',
      model: {
        id: 'scripted',
        script: {
          turns: [
            {
              match: '^run it$',
              reply: [
                { toolCall: { name: 'bash', input: { command: 'echo hi' } } },
                'went on after: {{tool_results}}',
              ],
            },
          ],
        },
      },
      tools: [{ type: 'agent_toolset_20260401' }],
    });
    expect(agent.status, JSON.stringify(agent.body)).toBe(200);
    agentId = agent.body.id;
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  it('returns created_by: the signed-in user as a person, an API key as a role', async () => {
    const environment = await client.beta.environments.create({ name: 'cloud', config: { type: 'cloud' } });
    const [admin] = await db.prisma.$queryRawUnsafe<Array<{ id: string }>>(
      `SELECT id FROM users WHERE username = 'admin'`,
    );
    const byUser = await client.beta.sessions.create({ agent: agentId, environment_id: environment.id });
    const expectedPerson = { type: 'person_actor', issuer: 'agentry', subject: admin!.id };
    expect((byUser as unknown as { created_by: unknown }).created_by).toEqual(expectedPerson);
    const fetched = await client.beta.sessions.retrieve(byUser.id);
    expect((fetched as unknown as { created_by: unknown }).created_by).toEqual(expectedPerson);

    const key = await api.post<{ id: string; key: string }>('/api/keys', {
      name: 'creator',
      permissions: ['read', 'write'],
    });
    expect(key.status, JSON.stringify(key.body)).toBe(200);
    const keyClient = new Anthropic({
      baseURL: platform.gatewayUrl,
      apiKey: key.body.key,
      maxRetries: 0,
    });
    const byKey = await keyClient.beta.sessions.create({ agent: agentId, environment_id: environment.id });
    expect((byKey as unknown as { created_by: unknown }).created_by).toEqual({
      type: 'role_actor',
      arn: `agentry:api_key/${key.body.id}`,
      role_id: key.body.id,
    });
  });

  it('answers a self-hosted tool call no worker takes with an error result after the configured time', async () => {
    const environment = await api.post<{ id: string }>('/v1/environments', {
      name: 'mine',
      config: { type: 'self_hosted' },
    });
    expect(environment.status, JSON.stringify(environment.body)).toBe(200);
    const session = await client.beta.sessions.create({
      agent: agentId,
      environment_id: environment.body.id,
    });
    await client.beta.sessions.events.send(session.id, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'run it' }] }],
    });
    const events = async () =>
      (await api.get<{ data: Event[] }>(`/v1/sessions/${session.id}/events?limit=1000`)).body.data;
    const log = await pollFor(
      'the turn to go on past the untaken call',
      events,
      (l) => l.some((e) => e.type === 'agent.message' && textOf(e).startsWith('went on after')),
      60_000,
    );
    const call = log.find((e) => e.type === 'agent.tool_use')!;
    const result = log.find((e) => e.type === 'user.tool_result' && e.tool_use_id === call.id)!;
    expect(result.is_error).toBe(true);
    expect(textOf(result)).toContain(`within ${NO_RUNNER_MS / 1000} s`);
    expect(Date.parse(result.created_at) - Date.parse(call.created_at)).toBeGreaterThanOrEqual(NO_RUNNER_MS);
    expect(textOf(log.filter((e) => e.type === 'agent.message').at(-1)!)).toContain('No worker');
    await pollFor(
      'the session to be idle',
      async () => (await client.beta.sessions.retrieve(session.id)).status,
      (s) => s === 'idle',
      30_000,
    );
  });
});
