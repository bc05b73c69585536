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

/** Tools the client runs itself, through the official SDK: offered, called, answered, seen by the model. */
describe('custom tools', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let client: Anthropic;
  let agentId: string;
  let environmentId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({ databaseUrl: db.url });
    const api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    const token = api.authHeaders.authorization!.replace(/^Bearer /, '');
    client = new Anthropic({ baseURL: platform.gatewayUrl, authToken: token, apiKey: null, maxRetries: 2 });
    const script = {
      turns: [
        {
          match: '^weather',
          reply: [
            { text: 'Offered: {{tools}}.', toolCall: { name: 'get_weather', input: { city: 'Paris' } } },
            'The client said: {{tool_results}}',
          ],
        },
      ],
    };
    const agent = await client.beta.agents.create({
      name: 'asks the client',
      model: { id: 'scripted', script } as never,
      tools: [
        {
          type: 'custom',
          name: 'get_weather',
          description: 'Current weather of a city, looked up by the client.',
          input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      ],
    });
    agentId = agent.id;
    environmentId = (await client.beta.environments.create({ name: 'cloud', config: { type: 'cloud' } })).id;
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

  const idleNumber = (sessionId: string, n: number, timeoutMs = 60_000) =>
    vi.waitFor(
      async () => {
        const idles = (await history(sessionId)).filter((e) => e.type === 'session.status_idle');
        if (idles.length < n) throw new Error(`session ${sessionId} never reached idle #${n}`);
        return idles[n - 1]!;
      },
      { timeout: timeoutMs, interval: 100 },
    );

  it('a call becomes agent.custom_tool_use and requires_action; user.custom_tool_result resumes the turn and the model sees it', async () => {
    const session = await client.beta.sessions.create({ agent: agentId, environment_id: environmentId });
    await client.beta.sessions.events.send(session.id, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'weather in Paris?' }] }],
    });

    const asked = await idleNumber(session.id, 1);
    const log = await history(session.id);
    const use = log.find((e) => e.type === 'agent.custom_tool_use')!;
    expect(use).toMatchObject({ name: 'get_weather', input: { city: 'Paris' } });
    expect(log.some((e) => e.type === 'agent.tool_use' || e.type === 'agent.tool_result')).toBe(false);
    expect(asked.stop_reason).toEqual({ type: 'requires_action', event_ids: [use.id] });
    // The model was offered the tool by its name.
    const offered =
      /Offered: ([^.]*)\./.exec(JSON.stringify(log.find((e) => e.type === 'agent.message')!.content))?.[1] ??
      '';
    expect(offered.split(', ')).toContain('get_weather');
    expect((await client.beta.sessions.retrieve(session.id)).status).toBe('idle');

    await client.beta.sessions.events.send(session.id, {
      events: [
        {
          type: 'user.custom_tool_result',
          custom_tool_use_id: use.id,
          content: [{ type: 'text', text: '18°C and sunny' }],
        },
      ],
    });
    const done = await idleNumber(session.id, 2);
    expect(done.stop_reason).toEqual({ type: 'end_turn' });
    const messages = (await history(session.id))
      .filter((e) => e.type === 'agent.message')
      .map((e) => JSON.stringify(e.content));
    expect(messages.at(-1)).toContain('The client said: 18°C and sunny');
  }, 120_000);

  it('an error result reaches the model as an error, and the turn still goes on', async () => {
    const session = await client.beta.sessions.create({ agent: agentId, environment_id: environmentId });
    await client.beta.sessions.events.send(session.id, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'weather in Oslo?' }] }],
    });
    const asked = await idleNumber(session.id, 1);
    const [id] = (asked.stop_reason as { event_ids: string[] }).event_ids;

    await client.beta.sessions.events.send(session.id, {
      events: [
        {
          type: 'user.custom_tool_result',
          custom_tool_use_id: id!,
          is_error: true,
          content: [{ type: 'text', text: 'weather service down' }],
        },
      ],
    });
    const done = await idleNumber(session.id, 2);
    expect(done.stop_reason).toEqual({ type: 'end_turn' });
    const messages = (await history(session.id))
      .filter((e) => e.type === 'agent.message')
      .map((e) => JSON.stringify(e.content));
    expect(messages.at(-1)).toContain('The client said: weather service down');
  }, 120_000);
});
