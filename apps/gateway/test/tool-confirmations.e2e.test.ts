import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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

/**
 * `always_ask` tools through the official SDK: the session idles with `requires_action`, and each
 * `user.tool_confirmation` (allow, deny with a message, one of several at a time) moves the turn on.
 */
describe('tool confirmations (always_ask)', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let client: Anthropic;
  let agentId: string;
  let environmentId: string;
  /** A page server that counts how often each path was fetched: a fetch is the tool having run. */
  let pages: Server;
  const hits = new Map<string, number>();
  let pageUrl: (path: string) => string;

  beforeAll(async () => {
    pages = createServer((req, res) => {
      hits.set(req.url ?? '', (hits.get(req.url ?? '') ?? 0) + 1);
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`contents of ${req.url}`);
    });
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
    pageUrl = (path) => `${base}${path}`;
    db = await createTestDatabase();
    platform = await launchPlatform({
      databaseUrl: db.url,
      env: { AGENTRY_EGRESS_ALLOW_PRIVATE_NETWORKS: 'true' },
    });
    const api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    const fetchOf = (path: string) => ({ name: 'web_fetch', input: { url: pageUrl(path) } });
    const script = {
      turns: [
        {
          match: '^fetch (/\\S+) and (/\\S+)',
          reply: [{ toolCalls: [fetchOf('/first'), fetchOf('/second')] }, 'Both answered.'],
        },
        { match: '^fetch allowed', reply: [{ toolCall: fetchOf('/allowed') }, 'Fetched it.'] },
        { match: '^fetch denied', reply: [{ toolCall: fetchOf('/denied') }, 'Understood, not fetching.'] },
        {
          match: '^fetch across a restart',
          reply: [{ toolCall: fetchOf('/restart') }, 'Fetched after the restart.'],
        },
        {
          match: '^fetch unanswered',
          reply: [{ toolCall: fetchOf('/unanswered') }, 'Moving on without it.'],
        },
      ],
    };
    const tools = [
      { type: 'agent_toolset_20260401', default_config: { permission_policy: { type: 'always_ask' } } },
    ];
    const agent = await api.post<{ id: string }>('/v1/agents', {
      name: 'asks first',
      model: { id: 'scripted', script },
      tools,
    });
    expect(agent.status).toBe(200);
    agentId = agent.body.id;
    environmentId = (
      await api.post<{ id: string }>('/v1/environments', { name: 'cloud', config: { type: 'cloud' } })
    ).body.id;
    const token = api.authHeaders.authorization!.replace(/^Bearer /, '');
    client = new Anthropic({ baseURL: platform.gatewayUrl, authToken: token, apiKey: null, maxRetries: 2 });
  }, 180_000);

  afterAll(async () => {
    pages?.closeAllConnections();
    pages?.close();
    await platform?.stop();
    await db?.drop();
  });

  const history = async (sessionId: string) => {
    const all: LoggedEvent[] = [];
    for await (const event of client.beta.sessions.events.list(sessionId, { limit: 1000 }))
      all.push(event as unknown as LoggedEvent);
    return all;
  };

  /** Waits for the `n`-th `session.status_idle` of the session and returns it. */
  const idleNumber = (sessionId: string, n: number, timeoutMs = 60_000) =>
    vi.waitFor(
      async () => {
        const idles = (await history(sessionId)).filter((e) => e.type === 'session.status_idle');
        if (idles.length < n) throw new Error(`session ${sessionId} never reached idle #${n}`);
        return idles[n - 1]!;
      },
      { timeout: timeoutMs, interval: 100 },
    );

  const start = async (text: string) => {
    const session = await client.beta.sessions.create({ agent: agentId, environment_id: environmentId });
    await client.beta.sessions.events.send(session.id, {
      events: [{ type: 'user.message', content: [{ type: 'text', text }] }],
    });
    return session.id;
  };

  const confirm = (sessionId: string, toolUseId: string, result: 'allow' | 'deny', denyMessage?: string) =>
    client.beta.sessions.events.send(sessionId, {
      events: [
        {
          type: 'user.tool_confirmation',
          tool_use_id: toolUseId,
          result,
          ...(denyMessage ? { deny_message: denyMessage } : {}),
        },
      ],
    });

  it('idles with requires_action naming the call; allow runs the tool and the turn goes on', async () => {
    const sessionId = await start('fetch allowed');
    const asked = await idleNumber(sessionId, 1);
    const use = (await history(sessionId)).find((e) => e.type === 'agent.tool_use')!;
    expect(use).toMatchObject({ name: 'web_fetch', evaluated_permission: 'ask' });
    expect(asked.stop_reason).toEqual({ type: 'requires_action', event_ids: [use.id] });
    expect((await client.beta.sessions.retrieve(sessionId)).status).toBe('idle');
    expect(hits.get('/allowed')).toBeUndefined();

    await confirm(sessionId, use.id, 'allow');
    const done = await idleNumber(sessionId, 2);
    expect(done.stop_reason).toEqual({ type: 'end_turn' });
    expect(hits.get('/allowed')).toBe(1);
    const log = await history(sessionId);
    const result = log.find((e) => e.type === 'agent.tool_result')!;
    expect(result).toMatchObject({ tool_use_id: use.id, is_error: false });
    expect(JSON.stringify(result.content)).toContain('contents of /allowed');
    expect(log.filter((e) => e.type === 'agent.message').map((e) => JSON.stringify(e.content))).toEqual([
      expect.stringContaining('Fetched it.'),
    ]);
  }, 120_000);

  it('deny with a message: the tool does not run, its result is an error carrying the message, the turn goes on', async () => {
    const sessionId = await start('fetch denied');
    const asked = await idleNumber(sessionId, 1);
    const [id] = (asked.stop_reason as { event_ids: string[] }).event_ids;

    await confirm(sessionId, id!, 'deny', 'That host is off limits today.');
    const done = await idleNumber(sessionId, 2);
    expect(done.stop_reason).toEqual({ type: 'end_turn' });
    expect(hits.get('/denied')).toBeUndefined();
    const log = await history(sessionId);
    const result = log.find((e) => e.type === 'agent.tool_result')!;
    expect(result).toMatchObject({ tool_use_id: id, is_error: true });
    expect(JSON.stringify(result.content)).toContain('That host is off limits today.');
    expect(
      log.some(
        (e) => e.type === 'agent.message' && JSON.stringify(e.content).includes('Understood, not fetching.'),
      ),
    ).toBe(true);
  }, 120_000);

  it('two parallel calls: confirming one keeps the other pending, confirming the second resumes the turn', async () => {
    const sessionId = await start('fetch /first and /second');
    const asked = await idleNumber(sessionId, 1);
    const ids = (asked.stop_reason as { event_ids: string[] }).event_ids;
    expect(ids).toHaveLength(2);

    await confirm(sessionId, ids[0]!, 'allow');
    const stillWaiting = await idleNumber(sessionId, 2);
    expect(stillWaiting.stop_reason).toEqual({ type: 'requires_action', event_ids: [ids[1]] });
    expect(hits.get('/first')).toBe(1);
    expect(hits.get('/second')).toBeUndefined();
    expect((await history(sessionId)).filter((e) => e.type === 'span.model_request_start')).toHaveLength(1);

    await confirm(sessionId, ids[1]!, 'allow');
    const done = await idleNumber(sessionId, 3);
    expect(done.stop_reason).toEqual({ type: 'end_turn' });
    expect(hits.get('/second')).toBe(1);
    const log = await history(sessionId);
    expect(log.filter((e) => e.type === 'agent.tool_result').map((e) => e.tool_use_id)).toEqual(ids);
    expect(
      log.some((e) => e.type === 'agent.message' && JSON.stringify(e.content).includes('Both answered.')),
    ).toBe(true);
  }, 120_000);

  it('an environment timeout denies a call left unanswered, with a message saying so, and the turn goes on', async () => {
    const timeoutSeconds = 2;
    const environment = await client.beta.environments.create({
      name: 'impatient',
      config: { type: 'cloud', tool_confirmation_timeout_seconds: timeoutSeconds } as never,
    });
    expect(environment.config).toMatchObject({ tool_confirmation_timeout_seconds: timeoutSeconds });
    const session = await client.beta.sessions.create({ agent: agentId, environment_id: environment.id });
    await client.beta.sessions.events.send(session.id, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'fetch unanswered' }] }],
    });
    const asked = await idleNumber(session.id, 1);
    const [id] = (asked.stop_reason as { event_ids: string[] }).event_ids;

    const done = await idleNumber(session.id, 2);
    expect(done.stop_reason).toEqual({ type: 'end_turn' });
    expect(hits.get('/unanswered')).toBeUndefined();
    const log = await history(session.id);
    const use = log.find((e) => e.id === id)!;
    const denial = log.find((e) => e.type === 'user.tool_confirmation')!;
    expect(denial).toMatchObject({ tool_use_id: id, result: 'deny' });
    // Not before the timeout had passed.
    expect(Date.parse(String(denial.created_at)) - Date.parse(String(use.created_at))).toBeGreaterThanOrEqual(
      timeoutSeconds * 1000,
    );
    const result = log.find((e) => e.type === 'agent.tool_result')!;
    expect(result).toMatchObject({ tool_use_id: id, is_error: true });
    expect(JSON.stringify(result.content)).toContain(`No confirmation arrived within ${timeoutSeconds} s`);
    expect(
      log.some(
        (e) => e.type === 'agent.message' && JSON.stringify(e.content).includes('Moving on without it.'),
      ),
    ).toBe(true);
  }, 120_000);

  it('a pending confirmation survives a SIGKILL of the dataplane and the gateway', async () => {
    const sessionId = await start('fetch across a restart');
    const asked = await idleNumber(sessionId, 1);
    const [id] = (asked.stop_reason as { event_ids: string[] }).event_ids;

    await Promise.all([
      platform.service('dataplane').kill('SIGKILL'),
      platform.service('gateway').kill('SIGKILL'),
    ]);
    platform.service('dataplane').start();
    platform.service('gateway').start();
    await Promise.all([
      platform.service('dataplane').waitReady(90_000),
      platform.service('gateway').waitReady(90_000),
    ]);

    expect((await client.beta.sessions.retrieve(sessionId)).status).toBe('idle');
    await confirm(sessionId, id!, 'allow');
    const done = await idleNumber(sessionId, 2);
    expect(done.stop_reason).toEqual({ type: 'end_turn' });
    expect(hits.get('/restart')).toBe(1);
    const log = await history(sessionId);
    expect(log.find((e) => e.type === 'agent.tool_result')).toMatchObject({
      tool_use_id: id,
      is_error: false,
    });
    expect(
      log.some(
        (e) => e.type === 'agent.message' && JSON.stringify(e.content).includes('Fetched after the restart.'),
      ),
    ).toBe(true);
  }, 240_000);
});
