import Anthropic from '@anthropic-ai/sdk';
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
type Elicitation = Event & { request: { type: string; message: string; url: string | null } };

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

/** Reads an SSE stream from its start until a frame of `type` arrives; returns every `data:` line read. */
async function sseUntil(url: string, headers: Record<string, string>, type: string): Promise<string[]> {
  const abort = new AbortController();
  const response = await fetch(url, { headers, signal: abort.signal });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader() as ReadableStreamDefaultReader<Uint8Array>;
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (!text.includes(`event: ${type}\n`)) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += decoder.decode(chunk.value, { stream: true });
    }
    // The frame's data line follows its event line.
    while (!new RegExp(`event: ${type.replace('.', '\\.')}\\ndata: .*\\n`).test(text)) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += decoder.decode(chunk.value, { stream: true });
    }
  } finally {
    abort.abort();
  }
  return text.split('\n').filter((line) => line.startsWith('data: '));
}

describe('MCP consent is the session creator’s: the link is theirs to read and answer, the token theirs to keep', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let mcp: ConsentMcpServer;
  let agentId: string;
  let environmentId: string;
  /** The session creator (admin), a member of the same namespace, a viewer, and an API key of the creator. */
  const who = {} as Record<
    'alice' | 'bob' | 'viewer' | 'key',
    { sdk: Anthropic; headers: Record<string, string> }
  >;
  /** Every API response body the test reads, to look for the token in. */
  const seen: string[] = [];

  const sdk = (auth: { token?: string; apiKey?: string }) =>
    new Anthropic({
      baseURL: platform.gatewayUrl,
      authToken: auth.token ?? null,
      apiKey: auth.apiKey ?? null,
      maxRetries: 0,
    });
  const login = async (username: string, password: string) => {
    const login = await new ApiClient(platform.gatewayUrl).post<{ token: string }>('/api/auth/login', {
      username,
      password,
    });
    expect(login.status).toBe(200);
    return {
      sdk: sdk({ token: login.body.token }),
      headers: { authorization: `Bearer ${login.body.token}` },
    };
  };

  const events = async (client: Anthropic, sessionId: string): Promise<Event[]> => {
    const all: Event[] = [];
    for await (const event of client.beta.sessions.events.list(sessionId, { limit: 1000 }))
      all.push(event as unknown as Event);
    seen.push(JSON.stringify(all));
    return all;
  };
  const apiEvents = async (headers: Record<string, string>, sessionId: string): Promise<string> => {
    const response = await fetch(`${platform.gatewayUrl}/api/sessions/${sessionId}/events`, { headers });
    expect(response.status).toBe(200);
    const body = await response.text();
    seen.push(body);
    return body;
  };

  /** Sends events as `client` and waits for the next `session.status_idle`; returns the events with it. */
  const send = async (client: Anthropic, sessionId: string, sent: Array<Record<string, unknown>>) => {
    const before = (await events(client, sessionId)).length;
    const reply = await client.beta.sessions.events.send(sessionId, { events: sent as never });
    seen.push(JSON.stringify(reply));
    return pollUntil(`an idle session ${sessionId}`, async () => {
      const turn = (await events(client, sessionId)).slice(before);
      const idle = turn.find((e) => e.type === 'session.status_idle');
      return idle ? { idle, turn } : undefined;
    });
  };
  const askCalendar = async (client: Anthropic) => {
    const session = await client.beta.sessions.create({ agent: agentId, environment_id: environmentId });
    const turn = await send(client, session.id, [
      { type: 'user.message', content: [{ type: 'text', text: 'what is in my calendar?' }] },
    ]);
    const elicitation = turn.turn.find((e) => e.type === 'agent.mcp_elicitation') as Elicitation | undefined;
    return { sessionId: session.id, ...turn, elicitation };
  };
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (e: unknown) => e as { status?: number; error?: { error?: Record<string, unknown> } },
    );

  beforeAll(async () => {
    db = await createTestDatabase();
    mcp = await startConsentMcpServer();
    platform = await launchPlatform({
      databaseUrl: db.url,
      env: { AGENTRY_EGRESS_ALLOW_PRIVATE_NETWORKS: 'true' },
    });
    who.alice = await login('admin', 'admin');
    const admin = new ApiClient(platform.gatewayUrl).as({ token: who.alice.headers.authorization!.slice(7) });
    for (const [username, role] of [
      ['bob', 'member'],
      ['vera', 'viewer'],
    ] as const) {
      const created = await admin.post('/api/admin/users', {
        username,
        password: `${username}-pass-1`,
        role,
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
    }
    who.bob = await login('bob', 'bob-pass-1');
    who.viewer = await login('vera', 'vera-pass-1');
    const key = await admin.post<{ key: string }>('/api/keys', {
      name: 'alice automation',
      permissions: ['read', 'write'],
    });
    expect(key.status, JSON.stringify(key.body)).toBe(200);
    who.key = { sdk: sdk({ apiKey: key.body.key }), headers: { 'x-api-key': key.body.key } };

    const agent = await who.alice.sdk.beta.agents.create({
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
    const env = await who.alice.sdk.beta.environments.create({
      name: 'consent env',
      config: { type: 'cloud' },
    });
    environmentId = env.id;
  });

  afterAll(async () => {
    await platform?.stop();
    await mcp?.close();
    await db?.drop();
  });

  let waiting: { sessionId: string; elicitationId: string; useId: string };

  it('only the creator reads the link (lists, /api and SSE); any other reader gets url null and url_redacted, and their answer is a 403 that changes nothing', async () => {
    mcp.revoke();
    const asked = await askCalendar(who.alice.sdk);
    const { sessionId } = asked;
    const elicitation = asked.elicitation!;
    expect(elicitation.request).toEqual({
      type: 'url',
      message: 'Allow Agentry to read your calendar',
      url: CONSENT_URL,
    });
    expect(asked.idle.stop_reason).toEqual({ type: 'requires_action', event_ids: [elicitation.id] });
    const use = asked.turn.find((e) => e.type === 'agent.mcp_tool_use')!;
    waiting = { sessionId, elicitationId: elicitation.id, useId: use.id };

    // Other readers of the same session: the event is there, its link is not.
    for (const other of [who.bob, who.viewer, who.key]) {
      const theirs = await events(other.sdk, sessionId);
      const withheld = theirs.find((e) => e.id === elicitation.id) as Elicitation;
      expect(withheld).toMatchObject({
        type: 'agent.mcp_elicitation',
        mcp_server_name: 'calendar',
        mcp_tool_use_id: use.id,
        request: {
          type: 'url',
          message: 'Allow Agentry to read your calendar',
          url: null,
          url_redacted: true,
        },
      });
      expect(JSON.stringify(theirs)).not.toContain(CONSENT_URL);
      expect(await apiEvents(other.headers, sessionId)).not.toContain(CONSENT_URL);
    }
    const apiForBob = JSON.parse(await apiEvents(who.bob.headers, sessionId)) as Array<
      Record<string, unknown>
    >;
    expect(JSON.stringify(apiForBob.find((e) => e.type === 'agent.mcp_elicitation'))).toContain(
      '"url_redacted":true',
    );
    expect(await apiEvents(who.alice.headers, sessionId)).toContain(CONSENT_URL);

    // Streams, replayed from the start: the creator's frame has the link, another reader's has not.
    const stream = (path: string, headers: Record<string, string>) =>
      sseUntil(
        `${platform.gatewayUrl}${path}/sessions/${sessionId}/events/stream?after=0`,
        headers,
        'agent.mcp_elicitation',
      );
    const aliceFrames = await stream('/v1', who.alice.headers);
    expect(aliceFrames.join('\n')).toContain(CONSENT_URL);
    for (const [path, other] of [
      ['/v1', who.bob],
      ['/api', who.bob],
      ['/v1', who.key],
    ] as const) {
      const frames = await stream(path, other.headers);
      const frame = frames.find((line) => line.includes(elicitation.id))!;
      expect(frame).toContain('"url":null');
      expect(frame).toContain('"url_redacted":true');
      expect(frames.join('\n')).not.toContain(CONSENT_URL);
    }

    // Only the creator answers: another member, and even the creator's own API key, get a typed 403.
    const callsBefore = mcp.calls.length;
    for (const other of [who.bob, who.key]) {
      const error = await refusal(
        other.sdk.beta.sessions.events.send(sessionId, {
          events: [
            {
              type: 'user.mcp_elicitation_response',
              mcp_elicitation_id: elicitation.id,
              response: { type: 'accept' },
            },
          ] as never,
        }),
      );
      expect(error).toBeInstanceOf(Anthropic.PermissionDeniedError);
      expect(error?.error?.error).toMatchObject({
        type: 'permission_error',
        details: { error_code: 'mcp_elicitation_not_creator' },
      });
      expect(String(error?.error?.error?.message)).toContain(sessionId);
    }
    const viewerError = await refusal(
      who.viewer.sdk.beta.sessions.events.send(sessionId, {
        events: [
          {
            type: 'user.mcp_elicitation_response',
            mcp_elicitation_id: elicitation.id,
            response: { type: 'accept' },
          },
        ] as never,
      }),
    );
    expect(viewerError).toBeInstanceOf(Anthropic.PermissionDeniedError);
    // Nothing was taken in, no call was made, and the session still waits on the same request.
    const after = await events(who.alice.sdk, sessionId);
    expect(after.some((e) => e.type === 'user.mcp_elicitation_response')).toBe(false);
    expect(after.at(-1)).toMatchObject({
      type: 'session.status_idle',
      stop_reason: { type: 'requires_action', event_ids: [elicitation.id] },
    });
    expect(mcp.calls.length).toBe(callsBefore);
  });

  it("the token of the creator's consent is kept in their vault: their next session calls without asking, another user's asks, and the token shows nowhere", async () => {
    const token = mcp.issueToken();
    const callsBefore = mcp.calls.length;
    const accepted = await send(who.alice.sdk, waiting.sessionId, [
      {
        type: 'user.mcp_elicitation_response',
        mcp_elicitation_id: waiting.elicitationId,
        response: { type: 'accept', credential: { access_token: token } },
      },
    ]);
    const result = accepted.turn.find((e) => e.type === 'agent.mcp_tool_result');
    expect(result).toMatchObject({ mcp_tool_use_id: waiting.useId, is_error: false });
    expect(textOf(result)).toBe('calendar for monday: standup at 9');
    expect(mcp.calls.slice(callsBefore)).toEqual([{ asked: false, token }]);
    // The answer is recorded as a plain accept.
    const answer = accepted.turn.find((e) => e.type === 'user.mcp_elicitation_response');
    expect(answer).toMatchObject({ response: { type: 'accept' } });
    expect((answer!.response as Record<string, unknown>).credential).toBeUndefined();

    // Alice's next session: the server gets her token and asks nothing.
    const again = await askCalendar(who.alice.sdk);
    expect(again.elicitation).toBeUndefined();
    expect(textOf(again.turn.find((e) => e.type === 'agent.mcp_tool_result'))).toBe(
      'calendar for monday: standup at 9',
    );
    expect(again.idle.stop_reason).toMatchObject({ type: 'end_turn' });
    expect(mcp.calls.at(-1)).toEqual({ asked: false, token });

    // Bob's session with the same agent and server: no token of his, so the server asks him.
    const bobs = await askCalendar(who.bob.sdk);
    expect(bobs.elicitation?.request.url).toBe(CONSENT_URL);
    expect(bobs.idle.stop_reason).toMatchObject({ type: 'requires_action' });
    expect(mcp.calls.at(-1)).toEqual({ asked: true, answer: 'cancel' });

    // The token is in Alice's consent vault as a credential for the server, and never readable.
    const vaults: unknown[] = [];
    for await (const vault of who.alice.sdk.beta.vaults.list()) vaults.push(vault);
    seen.push(JSON.stringify(vaults));
    const consentVault = vaults.find((v) => JSON.stringify(v).includes('mcp_consent')) as { id: string };
    expect(consentVault).toBeDefined();
    const credentials: unknown[] = [];
    for await (const c of who.alice.sdk.beta.vaults.credentials.list(consentVault.id)) credentials.push(c);
    seen.push(JSON.stringify(credentials));
    const staticBearer: unknown = expect.objectContaining({ type: 'static_bearer', mcp_server_url: mcp.url });
    expect(credentials).toEqual([expect.objectContaining({ auth: staticBearer })]);

    for (const sessionId of [waiting.sessionId, again.sessionId, bobs.sessionId]) {
      await events(who.alice.sdk, sessionId);
      await events(who.bob.sdk, sessionId);
      await apiEvents(who.alice.headers, sessionId);
      seen.push(JSON.stringify(await who.alice.sdk.beta.sessions.retrieve(sessionId)));
    }
    for (const body of seen) expect(body).not.toContain(token);
    // Nor is it in any stored event.
    const stored = await db.prisma.$queryRawUnsafe<Array<{ n: bigint }>>(
      'SELECT count(*) AS n FROM session_events WHERE payload::text LIKE $1',
      `%${token}%`,
    );
    expect(Number(stored[0]!.n)).toBe(0);
  });
});
