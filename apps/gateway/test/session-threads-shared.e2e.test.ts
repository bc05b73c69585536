import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  pollUntil,
  registerSecrets,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import { startBearerMcpServer, type BearerMcpServer } from './bearer-mcp-server.js';

type LoggedEvent = { id: string; type: string } & Record<string, unknown>;

const SECRETS = {
  env: `thread-env-secret-${randomBytes(12).toString('hex')}`,
  bearer: `thread-mcp-bearer-${randomBytes(12).toString('hex')}`,
};
registerSecrets('session vault credential', SECRETS);

/** A loopback server that keeps what each request carried and answers "ok". */
async function recorder(): Promise<{ server: Server; port: number; seen: IncomingMessage['headers'][] }> {
  const seen: IncomingMessage['headers'][] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push(req.headers);
    req.resume().on('end', () => res.end('ok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, seen };
}

const textOf = (event: LoggedEvent | undefined): string =>
  ((event?.content as Array<{ text?: string }> | undefined) ?? []).map((b) => b.text ?? '').join('');

/**
 * Threads share their session (CMA): a sub-agent works in the session's one filesystem, with the session's
 * vault credentials, on the five services through the official SDK.
 */
describe('session threads share the session', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let client: Anthropic;
  let mcp: BearerMcpServer;
  let allowed: Awaited<ReturnType<typeof recorder>>;
  let environmentId: string;

  beforeAll(async () => {
    mcp = await startBearerMcpServer(SECRETS.bearer);
    allowed = await recorder();
    db = await createTestDatabase();
    platform = await launchPlatform({
      databaseUrl: db.url,
      readyTimeoutMs: 300_000,
      env: {
        AGENTRY_SANDBOX_EGRESS_PRIVATE_ALLOWED: `127.0.0.1:${allowed.port}`,
        AGENTRY_EGRESS_ALLOW_PRIVATE_NETWORKS: 'true',
      },
    });
    const api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    const token = api.authHeaders.authorization!.replace(/^Bearer /, '');
    client = new Anthropic({ baseURL: platform.gatewayUrl, authToken: token, apiKey: null, maxRetries: 2 });
    environmentId = (await client.beta.environments.create({ name: 'cloud', config: { type: 'cloud' } })).id;
  }, 400_000);

  afterAll(async () => {
    await platform?.stop();
    await mcp?.close();
    allowed?.server.close();
    await db?.drop();
  });

  const history = async (sessionId: string, threadId?: string) => {
    const all: LoggedEvent[] = [];
    const pages = threadId
      ? client.beta.sessions.threads.events.list(threadId, { session_id: sessionId, limit: 1000 })
      : client.beta.sessions.events.list(sessionId, { limit: 1000 });
    for await (const event of pages) all.push(event as unknown as LoggedEvent);
    return all;
  };

  it("a sub-agent writes the session's files and uses its vault: MCP bearer and env-var secret at egress", async () => {
    const command = `echo "token=$SERVICE_TOKEN"; curl -sS -m 10 --noproxy '' -H "Authorization: Bearer $SERVICE_TOKEN" http://127.0.0.1:${allowed.port}/`;
    const helper = await client.beta.agents.create({
      name: 'helper',
      model: {
        id: 'scripted',
        script: {
          turns: [
            {
              reply: [
                {
                  toolCall: {
                    name: 'write',
                    input: { file_path: 'notes/shared.txt', content: 'from the helper' },
                  },
                },
                { toolCall: { name: 'mcp__secure__whoami', input: {} } },
                { toolCall: { name: 'bash', input: { command } } },
                'Helper: done.',
              ],
            },
          ],
        },
      } as never,
      tools: [
        { type: 'agent_toolset_20260401' },
        {
          type: 'mcp_toolset',
          mcp_server_name: 'secure',
          default_config: { permission_policy: { type: 'always_allow' } },
        },
      ],
      mcp_servers: [{ type: 'url', name: 'secure', url: mcp.url }],
    });
    const lead = await client.beta.agents.create({
      name: 'lead',
      model: {
        id: 'scripted',
        script: {
          turns: [
            {
              match: '^start',
              reply: [
                {
                  toolCall: {
                    name: 'send_message_to_agent',
                    input: { agent: 'helper', message: 'Write the note and check the services.' },
                  },
                },
                'Asked the helper.',
              ],
            },
            {
              match: '^Helper:',
              reply: [{ toolCall: { name: 'read', input: { file_path: 'notes/shared.txt' } } }, 'Read it.'],
            },
          ],
        },
      } as never,
      tools: [{ type: 'agent_toolset_20260401' }],
      multiagent: { type: 'coordinator', agents: [helper.id] } as never,
    });
    const vault = await client.beta.vaults.create({ display_name: 'session secrets' });
    await client.beta.vaults.credentials.create(vault.id, {
      auth: { type: 'static_bearer', mcp_server_url: mcp.url, token: SECRETS.bearer },
    });
    await client.beta.vaults.credentials.create(vault.id, {
      auth: {
        type: 'environment_variable',
        secret_name: 'SERVICE_TOKEN',
        secret_value: SECRETS.env,
        networking: { type: 'limited', allowed_hosts: [`127.0.0.1:${allowed.port}`] },
        injection_location: { header: true, body: false },
      },
    });
    const session = await client.beta.sessions.create({
      agent: lead.id,
      environment_id: environmentId,
      vault_ids: [vault.id],
    });
    await client.beta.sessions.events.send(session.id, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'start' }] }],
    });

    const log = await pollUntil(
      'the lead read the helper note',
      async () => {
        const events = await history(session.id);
        return events.some((e) => e.type === 'agent.message' && textOf(e) === 'Read it.')
          ? events
          : undefined;
      },
      120_000,
    );
    const read = log.filter((e) => e.type === 'agent.tool_result').at(-1);
    expect(read).toMatchObject({ is_error: false });
    expect(textOf(read)).toContain('from the helper');

    const threads = [];
    for await (const thread of client.beta.sessions.threads.list(session.id)) threads.push(thread);
    const helperThread = threads.find((t) => (t.agent as { name?: string }).name === 'helper')!;
    const own = await history(session.id, helperThread.id);
    const mcpResult = own.find((e) => e.type === 'agent.mcp_tool_result');
    expect(mcpResult).toMatchObject({ is_error: false });
    expect(mcp.seenAuthorization.at(-1)).toBe(`Bearer ${SECRETS.bearer}`);
    const bash = own.filter((e) => e.type === 'agent.tool_result').at(-1);
    expect(bash).toMatchObject({ is_error: false });
    const [echoed, answer] = textOf(bash).split('\n');
    expect(echoed).toMatch(/^token=agentry_placeholder_[0-9a-f]{32}$/);
    expect(answer).toBe('ok');
    expect(allowed.seen).toEqual([expect.objectContaining({ authorization: `Bearer ${SECRETS.env}` })]);
    // The secrets never show in what the API answers.
    expect(JSON.stringify([log, own])).not.toContain(SECRETS.env);
    expect(JSON.stringify([log, own])).not.toContain(SECRETS.bearer);
  }, 180_000);

  /** The events of the session's primary stream, collected from now on while the test runs. */
  const watchPrimary = async (sessionId: string) => {
    const seen: LoggedEvent[] = [];
    const stream = await client.beta.sessions.events.stream(sessionId);
    void (async () => {
      for await (const event of stream) seen.push(event as unknown as LoggedEvent);
    })().catch(() => undefined);
    return { seen, stop: () => stream.controller.abort() };
  };
  const say = (sessionId: string, text: string) =>
    client.beta.sessions.events.send(sessionId, {
      events: [{ type: 'user.message', content: [{ type: 'text', text }] }],
    });

  it("a thread's confirmations and custom tool calls show on the primary stream and the answers reach the thread", async () => {
    const asker = await client.beta.agents.create({
      name: 'asker',
      model: {
        id: 'scripted',
        script: {
          turns: [
            {
              match: '^first',
              reply: [
                { toolCall: { name: 'bash', input: { command: 'echo first-ran' } } },
                'Asker: first done.',
              ],
            },
            {
              match: '^second',
              reply: [
                { toolCall: { name: 'bash', input: { command: 'echo second-ran' } } },
                'Asker: second done.',
              ],
            },
            {
              match: '^third',
              reply: [{ toolCall: { name: 'lookup', input: { q: 'answer' } } }, 'Asker: third done.'],
            },
          ],
        },
      } as never,
      tools: [
        { type: 'agent_toolset_20260401', default_config: { permission_policy: { type: 'always_ask' } } },
        {
          type: 'custom',
          name: 'lookup',
          description: 'Looked up by the client.',
          input_schema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
        },
      ],
    });
    const delegate = (message: string) => ({
      match: `^go ${message}`,
      reply: [{ toolCall: { name: 'send_message_to_agent', input: { agent: 'asker', message } } }, 'Sent.'],
    });
    const lead = await client.beta.agents.create({
      name: 'asking lead',
      model: {
        id: 'scripted',
        script: {
          turns: [
            delegate('first'),
            delegate('second'),
            delegate('third'),
            { match: '^Asker:', reply: ['Noted.'] },
          ],
        },
      } as never,
      multiagent: { type: 'coordinator', agents: [asker.id] } as never,
    });
    const session = await client.beta.sessions.create({ agent: lead.id, environment_id: environmentId });
    const primary = await watchPrimary(session.id);
    const answered = (text: string) =>
      pollUntil(`the lead got "${text}"`, async () => {
        const log = await history(session.id);
        return log.some((e) => e.type === 'agent.thread_message_received' && textOf(e) === text)
          ? log
          : undefined;
      });
    const crossPosted = async (type: string, after: number) => {
      const call = await pollUntil(`a cross-posted ${type}`, () =>
        primary.seen.slice(after).find((e) => e.type === type && e.session_thread_id),
      );
      const idle = await pollUntil('the thread idle on the primary stream', () =>
        primary.seen
          .slice(after)
          .find(
            (e) => e.type === 'session.thread_status_idle' && e.session_thread_id === call.session_thread_id,
          ),
      );
      expect(idle.stop_reason).toEqual({ type: 'requires_action', event_ids: [call.id] });
      return call;
    };

    // Allow, naming the thread: the thread runs the call and answers.
    await say(session.id, 'go first');
    const first = await crossPosted('agent.tool_use', 0);
    expect(first).toMatchObject({
      name: 'bash',
      input: { command: 'echo first-ran' },
      evaluated_permission: 'ask',
    });
    const threadId = first.session_thread_id as string;
    await client.beta.sessions.events.send(session.id, {
      events: [
        {
          type: 'user.tool_confirmation',
          tool_use_id: first.id,
          result: 'allow',
          session_thread_id: threadId,
        } as never,
      ],
    });
    await answered('Asker: first done.');
    let own = await history(session.id, threadId);
    const ran = own.find((e) => e.type === 'agent.tool_result');
    expect(ran).toMatchObject({ is_error: false });
    expect(textOf(ran)).toContain('first-ran');
    const recorded = (await history(session.id)).find((e) => e.type === 'user.tool_confirmation');
    expect(recorded).toMatchObject({ tool_use_id: first.id, session_thread_id: threadId });

    // Deny, by the call's id alone (as CMA routes it): the call ends with the message, nothing ran.
    let mark = primary.seen.length;
    await say(session.id, 'go second');
    const second = await crossPosted('agent.tool_use', mark);
    expect(second.session_thread_id).toBe(threadId);
    await client.beta.sessions.events.send(session.id, {
      events: [
        {
          type: 'user.tool_confirmation',
          tool_use_id: second.id,
          result: 'deny',
          deny_message: 'Not today.',
        },
      ],
    });
    await answered('Asker: second done.');
    own = await history(session.id, threadId);
    const denied = own.filter((e) => e.type === 'agent.tool_result').at(-1);
    expect(denied).toMatchObject({ is_error: true });
    expect(textOf(denied)).toContain('Not today.');
    expect(textOf(denied)).not.toContain('second-ran');

    // A custom tool's result goes to the thread the same way.
    mark = primary.seen.length;
    await say(session.id, 'go third');
    const third = await crossPosted('agent.custom_tool_use', mark);
    expect(third).toMatchObject({ name: 'lookup', input: { q: 'answer' }, session_thread_id: threadId });
    await client.beta.sessions.events.send(session.id, {
      events: [
        {
          type: 'user.custom_tool_result',
          custom_tool_use_id: third.id,
          content: [{ type: 'text', text: '42' }],
        },
      ],
    });
    await answered('Asker: third done.');
    own = await history(session.id, threadId);
    expect(own.find((e) => e.type === 'user.custom_tool_result')).toMatchObject({
      content: [{ type: 'text', text: '42' }],
    });
    // The primary's own conversation never took the thread's calls for its own.
    const log = await history(session.id);
    expect(log.filter((e) => e.type === 'agent.message').map(textOf)).toEqual(
      expect.arrayContaining(['Noted.']),
    );
    expect(log.some((e) => e.type === 'session.error')).toBe(false);
    primary.stop();
  }, 180_000);

  it('an interrupt naming no thread stops the primary and every running thread; archiving terminates a thread', async () => {
    const slow = (name: string) =>
      client.beta.agents.create({
        name,
        model: {
          id: 'scripted',
          script: { turns: [{ reply: [{ delayMs: 60_000, text: 'Too late.' }] }] },
        } as never,
      });
    const [one, two] = await Promise.all([slow('slow one'), slow('slow two')]);
    const lead = await client.beta.agents.create({
      name: 'waiting lead',
      model: {
        id: 'scripted',
        script: {
          turns: [
            {
              match: '^both',
              reply: [
                {
                  toolCalls: [
                    { name: 'send_message_to_agent', input: { agent: 'slow one', message: 'Work.' } },
                    { name: 'send_message_to_agent', input: { agent: 'slow two', message: 'Work.' } },
                  ],
                },
                { delayMs: 60_000, text: 'Waited.' },
              ],
            },
          ],
        },
      } as never,
      multiagent: { type: 'coordinator', agents: [one.id, two.id] } as never,
    });
    const session = await client.beta.sessions.create({ agent: lead.id, environment_id: environmentId });
    await say(session.id, 'both of you');
    const children = await pollUntil('the primary and both threads in a model call', async () => {
      const log = await history(session.id);
      if (log.filter((e) => e.type === 'span.model_request_start').length < 2) return undefined;
      const threads = [];
      for await (const thread of client.beta.sessions.threads.list(session.id))
        if (thread.parent_thread_id !== null) threads.push(thread);
      if (threads.length !== 2) return undefined;
      for (const thread of threads) {
        const own = await history(session.id, thread.id);
        if (!own.some((e) => e.type === 'span.model_request_start')) return undefined;
      }
      return threads;
    });
    await client.beta.sessions.events.send(session.id, { events: [{ type: 'user.interrupt' }] });

    const log = await pollUntil(
      'the primary and both threads stopped',
      async () => {
        const events = await history(session.id);
        const threadIdles = children.map((t) =>
          events.find((e) => e.type === 'session.thread_status_idle' && e.session_thread_id === t.id),
        );
        const interrupted = events.findIndex((e) => e.type === 'user.interrupt');
        const primaryIdle = events.slice(interrupted).some((e) => e.type === 'session.status_idle');
        return primaryIdle && threadIdles.every(Boolean) ? events : undefined;
      },
      30_000,
    );
    const interrupt = log.find((e) => e.type === 'user.interrupt')!;
    const at = (e: LoggedEvent) => Date.parse(e.processed_at as string);
    const stops = [
      log.findLast((e) => e.type === 'session.status_idle')!,
      ...children.map((t) =>
        log.find((e) => e.type === 'session.thread_status_idle' && e.session_thread_id === t.id)!,
      ),
    ];
    for (const stop of stops) {
      expect(stop.stop_reason).toMatchObject({ type: 'end_turn' });
      expect(at(stop) - at(interrupt)).toBeLessThan(2_000);
    }
    for (const thread of children) {
      const own = await history(session.id, thread.id);
      expect(own.map((e) => e.type)).toContain('user.interrupt');
      expect(own.some((e) => e.type === 'agent.message')).toBe(false);
      expect(
        (await client.beta.sessions.threads.retrieve(thread.id, { session_id: session.id })).status,
      ).toBe('idle');
    }
    expect(log.some((e) => e.type === 'agent.message' && textOf(e) === 'Waited.')).toBe(false);

    // An archived thread is terminated, on its own stream and the primary's.
    const archived = children[0]!;
    const archivedName = (archived.agent as { name: string }).name;
    await client.beta.sessions.threads.archive(archived.id, { session_id: session.id });
    const own = await history(session.id, archived.id);
    expect(own.filter((e) => e.type === 'session.thread_status_terminated')).toEqual([
      expect.objectContaining({ session_thread_id: archived.id, agent_name: archivedName }),
    ]);
    const after = await history(session.id);
    expect(after.filter((e) => e.type === 'session.thread_status_terminated')).toEqual([
      expect.objectContaining({ session_thread_id: archived.id, agent_name: archivedName }),
    ]);
  }, 180_000);
});
