import Anthropic from '@anthropic-ai/sdk';
import type { BetaManagedAgentsBedrockAgentMCPElicitationEvent } from '@anthropic-ai/sdk/resources/beta/bedrock/sessions/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  pollUntil,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import { CONSENT_URL, startConsentMcpServer, type ConsentMcpServer } from './consent-mcp-server.js';

type Event = { id: string; type: string; processed_at?: string | null } & Record<string, unknown>;

const SCRIPT = {
  turns: [
    {
      match: 'calendar',
      reply: [
        { toolCall: { name: 'mcp__calendar__read_calendar', input: { day: 'monday' } } },
        { text: 'Calendar: {{tool_results}}' },
      ],
    },
  ],
};

const textOf = (event: Event | undefined): string =>
  ((event?.content as Array<{ type: string; text?: string }> | undefined) ?? [])
    .map((b) => b.text ?? '')
    .join('');

describe('an MCP server that asks the user for consent at a link (URL elicitation)', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let client: Anthropic;
  let mcp: ConsentMcpServer;
  let agentId: string;
  let environmentId: string;

  const events = async (sessionId: string): Promise<Event[]> => {
    const all: Event[] = [];
    for await (const event of client.beta.sessions.events.list(sessionId, { limit: 1000 }))
      all.push(event as unknown as Event);
    return all;
  };

  /** Sends events and waits for the next `session.status_idle`; returns the events that came with it. */
  const send = async (sessionId: string, sent: Array<Record<string, unknown>>) => {
    const before = (await events(sessionId)).length;
    await client.beta.sessions.events.send(sessionId, { events: sent as never });
    return pollUntil(`an idle session ${sessionId}`, async () => {
      const turn = (await events(sessionId)).slice(before);
      const idle = turn.find((e) => e.type === 'session.status_idle');
      return idle ? { idle, turn } : undefined;
    });
  };
  const answer = (sessionId: string, elicitationId: string, type: string) =>
    send(sessionId, [
      { type: 'user.mcp_elicitation_response', mcp_elicitation_id: elicitationId, response: { type } },
    ]);

  /** A new session asks for the calendar; the server wants consent first. */
  const askedForConsent = async () => {
    const session = await client.beta.sessions.create({ agent: agentId, environment_id: environmentId });
    const asked = await send(session.id, [
      { type: 'user.message', content: [{ type: 'text', text: 'what is in my calendar?' }] },
    ]);
    const use = asked.turn.find((e) => e.type === 'agent.mcp_tool_use');
    const elicitation = asked.turn.find((e) => e.type === 'agent.mcp_elicitation') as
      (Event & BetaManagedAgentsBedrockAgentMCPElicitationEvent) | undefined;
    return { sessionId: session.id, asked, use: use!, elicitation: elicitation! };
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    mcp = await startConsentMcpServer();
    platform = await launchPlatform({
      databaseUrl: db.url,
      env: { AGENTRY_EGRESS_ALLOW_PRIVATE_NETWORKS: 'true' },
    });
    const login = await new ApiClient(platform.gatewayUrl).post<{ token: string }>('/api/auth/login', {
      username: 'admin',
      password: 'admin',
    });
    client = new Anthropic({
      baseURL: platform.gatewayUrl,
      authToken: login.body.token,
      apiKey: null,
      maxRetries: 0,
    });
    const agent = await client.beta.agents.create({
      name: 'calendar reader',
      model: { id: 'scripted', script: SCRIPT } as never,
      mcp_servers: [{ type: 'url', name: 'calendar', url: mcp.url }],
      tools: [
        {
          type: 'mcp_toolset',
          mcp_server_name: 'calendar',
          default_config: { permission_policy: { type: 'always_allow' } },
        },
      ],
    });
    agentId = agent.id;
    const env = await client.beta.environments.create({ name: 'consent env', config: { type: 'cloud' } });
    environmentId = env.id;
  });

  afterAll(async () => {
    await platform?.stop();
    await mcp?.close();
    await db?.drop();
  });

  it('idles with requires_action on agent.mcp_elicitation; accept makes the same call once more, and a second answer changes nothing', async () => {
    mcp.revoke();
    const callsBefore = mcp.calls.length;
    const { sessionId, asked, use, elicitation } = await askedForConsent();
    expect(use).toMatchObject({
      name: 'read_calendar',
      mcp_server_name: 'calendar',
      input: { day: 'monday' },
    });
    expect(elicitation).toMatchObject({
      type: 'agent.mcp_elicitation',
      mcp_server_name: 'calendar',
      mcp_tool_use_id: use.id,
      request: { type: 'url', message: 'Allow Agentry to read your calendar', url: CONSENT_URL },
      session_thread_id: null,
    });
    expect(asked.idle.stop_reason).toEqual({ type: 'requires_action', event_ids: [elicitation.id] });
    // No result yet: the call waits for the user, and the server was told the client cannot answer now.
    expect(asked.turn.some((e) => e.type === 'agent.mcp_tool_result')).toBe(false);
    expect(mcp.calls.slice(callsBefore)).toEqual([{ asked: true, answer: 'cancel' }]);

    mcp.grant();
    const accepted = await answer(sessionId, elicitation.id, 'accept');
    expect(accepted.turn.some((e) => e.type === 'agent.mcp_tool_use')).toBe(false);
    const result = accepted.turn.find((e) => e.type === 'agent.mcp_tool_result');
    expect(result).toMatchObject({ mcp_tool_use_id: use.id, is_error: false });
    expect(textOf(result)).toBe('calendar for monday: standup at 9');
    expect(textOf(accepted.turn.find((e) => e.type === 'agent.message'))).toContain('standup at 9');
    expect(accepted.idle.stop_reason).toMatchObject({ type: 'end_turn' });
    expect(mcp.calls.slice(callsBefore)).toEqual([{ asked: true, answer: 'cancel' }, { asked: false }]);

    // The first answer won: a second one is taken in and consumed without a call or a turn.
    const all = await events(sessionId);
    await client.beta.sessions.events.send(sessionId, {
      events: [
        {
          type: 'user.mcp_elicitation_response',
          mcp_elicitation_id: elicitation.id,
          response: { type: 'decline' },
        },
      ] as never,
    });
    const after = await pollUntil('the second answer consumed', async () => {
      const now = await events(sessionId);
      const late = now.slice(all.length).find((e) => e.type === 'user.mcp_elicitation_response');
      return late?.processed_at ? now : undefined;
    });
    expect(after.slice(all.length).map((e) => e.type)).toEqual(['user.mcp_elicitation_response']);
    expect(mcp.calls.length).toBe(callsBefore + 2);
  });

  it('decline ends the call with an error result, without calling the server again, and the turn goes on', async () => {
    mcp.revoke();
    const callsBefore = mcp.calls.length;
    const { sessionId, use, elicitation } = await askedForConsent();
    const declined = await answer(sessionId, elicitation.id, 'decline');
    const result = declined.turn.find((e) => e.type === 'agent.mcp_tool_result');
    expect(result).toMatchObject({ mcp_tool_use_id: use.id, is_error: true });
    expect(textOf(result)).toContain('declined');
    expect(declined.turn.some((e) => e.type === 'agent.mcp_tool_use')).toBe(false);
    expect(textOf(declined.turn.find((e) => e.type === 'agent.message'))).toContain('declined');
    expect(declined.idle.stop_reason).toMatchObject({ type: 'end_turn' });
    expect(mcp.calls.length).toBe(callsBefore + 1);
  });

  it('an answer naming no elicitation of the session is a 400 with error_code mcp_elicitation_not_found', async () => {
    const session = await client.beta.sessions.create({ agent: agentId, environment_id: environmentId });
    const error = await client.beta.sessions.events
      .send(session.id, {
        events: [
          {
            type: 'user.mcp_elicitation_response',
            mcp_elicitation_id: 'sevt_nosuch',
            response: { type: 'accept' },
          },
        ] as never,
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    const body = (error as { error: { error: { message: string; details?: Record<string, unknown> } } })
      .error;
    expect(body.error.details).toMatchObject({ error_code: 'mcp_elicitation_not_found' });
    expect(body.error.message).toContain('sevt_nosuch');
    // Nothing was taken in.
    expect((await events(session.id)).some((e) => e.type === 'user.mcp_elicitation_response')).toBe(false);
  });
});
