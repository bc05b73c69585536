import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  FakeE2bServer,
  launchPlatform,
  pollUntil,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import { sessionHistory } from './session-logs.js';
import type { Created } from './wire-types.js';

/**
 * Lazy sandbox, eager model: a session's sandbox is made while its first model call runs, never before it.
 * The sandbox provider here (E2B over HTTP) is slow on purpose: every creation waits until the test lets
 * it finish, so the turn can only end first if it never waited for its sandbox.
 */
describe('Hands: the sandbox is provisioned beside the first model call', () => {
  let root: string;
  let e2b: FakeE2bServer;
  let db: TestDatabase;
  let platform: RunningPlatform;
  let client: Anthropic;
  let agentId: string;
  let chatAgentId: string;
  let environmentId: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'hands-lazy-sandbox-'));
    e2b = await new FakeE2bServer().start();
    db = await createTestDatabase();
    platform = await launchPlatform({
      databaseUrl: db.url,
      env: {
        AGENTRY_E2B_API_KEY: 'e2b_lazy_sandbox_test_key',
        AGENTRY_E2B_API_URL: e2b.url,
        AGENTRY_E2B_SANDBOX_URL: e2b.url,
        AGENTRY_E2B_WORKDIR: join(root, 'sandbox', 'workspace'),
      },
    });
    const api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    const script = {
      turns: [
        { match: '^hello', reply: ['Hello: no tool needed.'] },
        {
          match: '^run',
          reply: [{ toolCall: { name: 'bash', input: { command: 'echo sandbox-ready' } } }, 'ran'],
        },
      ],
    };
    const agent = await api.post<Created>('/v1/agents', {
      name: 'lazy',
      model: { id: 'scripted', script },
      tools: [{ type: 'agent_toolset_20260401' }],
    });
    expect(agent.status, JSON.stringify(agent.body)).toBe(200);
    agentId = agent.body.id;
    const chatAgent = await api.post<Created>('/v1/agents', {
      name: 'chat only',
      model: { id: 'scripted', script },
    });
    expect(chatAgent.status, JSON.stringify(chatAgent.body)).toBe(200);
    chatAgentId = chatAgent.body.id;
    const environment = await api.post<Created>('/v1/environments', {
      name: 'slow e2b',
      config: { type: 'cloud', sandbox: { provider: 'e2b' } },
    });
    expect(environment.status, JSON.stringify(environment.body)).toBe(200);
    environmentId = environment.body.id;
    const token = api.authHeaders.authorization!.replace(/^Bearer /, '');
    client = new Anthropic({ baseURL: platform.gatewayUrl, authToken: token, apiKey: null, maxRetries: 0 });
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
    await e2b?.stop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  const history = (sessionId: string) => sessionHistory(client, sessionId);

  const turnEnded = (sessionId: string, turns: number) =>
    pollUntil(`turn ${turns} ending`, async () => {
      const events = await history(sessionId);
      const ends = events.filter(
        (e) =>
          e.type === 'session.status_idle' &&
          (e.stop_reason as { type?: string } | undefined)?.type === 'end_turn',
      );
      return ends.length >= turns ? events : undefined;
    });

  it('asks for the sandbox while the model answers, ends a tool-free turn without it, and the first call uses it', async () => {
    const release = e2b.holdCreates();
    const session = await client.beta.sessions.create({ agent: agentId, environment_id: environmentId });
    await client.beta.sessions.events.send(session.id, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'hello' }] }],
    });

    const firstTurn = await turnEnded(session.id, 1);
    // The sandbox was asked for during the turn (or just as it ended), and is still being made.
    await pollUntil('the sandbox being asked for', () => e2b.creations.length > 0 || undefined, 20_000);
    expect(e2b.creations).toHaveLength(1);
    expect(e2b.creations[0]!.readyAt, 'the sandbox is still being made').toBeUndefined();
    const modelStart = firstTurn.find((e) => e.type === 'span.model_request_start');
    expect(modelStart, 'the model was asked').toBeDefined();
    expect(firstTurn.map((e) => e.type)).toContain('agent.message');
    expect(firstTurn.some((e) => e.type === 'agent.tool_use')).toBe(false);

    // The provider finishes; the turn that needs a tool runs it in the sandbox made for the first one.
    release();
    await pollUntil('the sandbox ready', () => e2b.creations[0]!.readyAt, 20_000);
    await client.beta.sessions.events.send(session.id, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'run it' }] }],
    });
    const secondTurn = await turnEnded(session.id, 2);
    const result = secondTurn.find((e) => e.type === 'agent.tool_result');
    expect(JSON.stringify(result?.content)).toContain('sandbox-ready');
    expect(result?.is_error).toBeFalsy();
    expect(e2b.creations, 'one sandbox for the session').toHaveLength(1);
  });

  it('makes no sandbox for an agent without tools that run in one', async () => {
    const chat = await client.beta.sessions.create({ agent: chatAgentId, environment_id: environmentId });
    await client.beta.sessions.events.send(chat.id, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'hello' }] }],
    });
    await turnEnded(chat.id, 1);
    // A session whose agent has the toolset, started after the chat's turn ended, is asked a sandbox for.
    const tooled = await client.beta.sessions.create({ agent: agentId, environment_id: environmentId });
    await client.beta.sessions.events.send(tooled.id, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'hello' }] }],
    });
    await turnEnded(tooled.id, 1);
    await pollUntil(
      'a sandbox for the session with the toolset',
      () => e2b.creations.some((c) => c.sessionId === tooled.id) || undefined,
    );
    expect(e2b.creations.map((c) => c.sessionId)).not.toContain(chat.id);
  });
});
