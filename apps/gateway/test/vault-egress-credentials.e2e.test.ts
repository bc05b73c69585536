import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  FakeOtlpReceiver,
  launchPlatform,
  pollUntil,
  recordingFetch,
  registerSecret,
  registerSecrets,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import { startBearerMcpServer, type BearerMcpServer } from './bearer-mcp-server.js';

type Event = { id: string; type: string } & Record<string, unknown>;

const SECRET = `env-secret-${randomBytes(12).toString('hex')}`;
const OAUTH_SECRETS = {
  expired: `oauth-expired-${randomBytes(8).toString('hex')}`,
  fresh: `oauth-fresh-${randomBytes(8).toString('hex')}`,
  refresh: `oauth-refresh-${randomBytes(8).toString('hex')}`,
  rotated: `oauth-rotated-${randomBytes(8).toString('hex')}`,
  revoked: `oauth-revoked-${randomBytes(8).toString('hex')}`,
  client: `oauth-client-${randomBytes(8).toString('hex')}`,
};
registerSecret('vault environment variable value', SECRET);
registerSecrets('vault oauth credential', OAUTH_SECRETS);

interface Recorder {
  server: Server;
  port: number;
  seen: Array<{ headers: IncomingMessage['headers']; body: string }>;
}

/** A loopback HTTP(S) server that keeps what each request carried and answers only "ok", so nothing it was sent comes back to the sandbox. */
async function recorder(tls?: { key: string; cert: string }): Promise<Recorder> {
  const seen: Recorder['seen'] = [];
  const server = tls ? createHttpsServer(tls) : createHttpServer();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, seen };
}

/** A test CA and a certificate for 127.0.0.1 it signed, made with the openssl CLI. */
function testCertificates(dir: string): { caFile: string; key: string; cert: string } {
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  run(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-days',
    '2',
    '-subj',
    '/CN=egress test CA',
  );
  run(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
    '-subj',
    '/CN=127.0.0.1',
  );
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  run(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.crt',
    '-days',
    '2',
    '-extfile',
    'san.ext',
  );
  return {
    caFile: join(dir, 'ca.crt'),
    key: readFileSync(join(dir, 'server.key'), 'utf8'),
    cert: readFileSync(join(dir, 'server.crt'), 'utf8'),
  };
}

const textOf = (event: Event | undefined): string =>
  ((event?.content as Array<{ type: string; text?: string }> | undefined) ?? [])
    .map((b) => b.text ?? '')
    .join('');

/**
 * Vault credentials used at run time on five processes: an `environment_variable` credential reaches the
 * sandbox only as a placeholder and is swapped in by the egress proxy for its hosts alone (HTTP and HTTPS);
 * an `mcp_oauth` credential is refreshed when the server refuses its token, and a failed refresh is a
 * `session.error` plus a clear tool error. No secret shows in any event, response or service log.
 */
describe('vault credentials injected at egress and refreshed for MCP servers', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  // The services' traces are exported here, so the end-of-run secret scan reads them too.
  let otlp: FakeOtlpReceiver;
  let client: Anthropic;
  let certDir: string;
  let allowed: Recorder;
  let other: Recorder;
  let secure: Recorder;
  let mcp: BearerMcpServer;
  let revokedMcp: BearerMcpServer;
  let tokenEndpoint: Server;
  const tokenRequests: URLSearchParams[] = [];
  const mcpToken = OAUTH_SECRETS.fresh;
  /** Every body the API answered with, scanned for secrets at the end. */
  const responses: unknown[] = [];

  const events = async (sessionId: string): Promise<Event[]> => {
    const all: Event[] = [];
    for await (const event of client.beta.sessions.events.list(sessionId, { limit: 1000 }))
      all.push(event as unknown as Event);
    responses.push(all);
    return all;
  };

  /** Sends a message and waits for the turn to end; returns the turn's events. */
  const say = async (sessionId: string, text: string): Promise<Event[]> => {
    const before = (await events(sessionId)).length;
    responses.push(
      await client.beta.sessions.events.send(sessionId, {
        events: [{ type: 'user.message', content: [{ type: 'text', text }] }],
      }),
    );
    return pollUntil(
      `an idle session ${sessionId}`,
      async () => {
        const turn = (await events(sessionId)).slice(before);
        return turn.some((e) => e.type === 'session.status_idle') ? turn : undefined;
      },
      90_000,
    );
  };

  beforeAll(async () => {
    certDir = mkdtempSync(join(tmpdir(), 'egress-certs-'));
    const tls = testCertificates(certDir);
    [allowed, other, secure] = await Promise.all([
      recorder(),
      recorder(),
      recorder({ key: tls.key, cert: tls.cert }),
    ]);

    mcp = await startBearerMcpServer(() => mcpToken);
    revokedMcp = await startBearerMcpServer(() => `never-${OAUTH_SECRETS.fresh}`);
    tokenEndpoint = createHttpServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const form = new URLSearchParams(Buffer.concat(chunks).toString());
        tokenRequests.push(form);
        const clientOk =
          form.get('client_id') === 'agentry-test' && form.get('client_secret') === OAUTH_SECRETS.client;
        if (
          form.get('grant_type') === 'refresh_token' &&
          form.get('refresh_token') === OAUTH_SECRETS.refresh &&
          clientOk
        ) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              access_token: OAUTH_SECRETS.fresh,
              token_type: 'Bearer',
              expires_in: 3600,
              refresh_token: OAUTH_SECRETS.rotated,
            }),
          );
          return;
        }
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: 'invalid_grant' }));
      });
    });
    await new Promise<void>((resolve) => tokenEndpoint.listen(0, '127.0.0.1', resolve));

    db = await createTestDatabase();
    otlp = await FakeOtlpReceiver.start();
    platform = await launchPlatform({
      databaseUrl: db.url,
      readyTimeoutMs: 300_000,
      env: {
        ...otlp.exportEnv,
        AGENTRY_SANDBOX_EGRESS_PRIVATE_ALLOWED: [allowed, other, secure]
          .map((s) => `127.0.0.1:${s.port}`)
          .join(','),
        // The worker's proxy verifies the test host's certificate like any other upstream.
        NODE_EXTRA_CA_CERTS: tls.caFile,
        AGENTRY_EGRESS_ALLOW_PRIVATE_NETWORKS: 'true',
      },
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
      fetch: recordingFetch,
    });
  }, 420_000);

  afterAll(async () => {
    await platform?.stop();
    await otlp?.stop();
    await Promise.all([mcp?.close(), revokedMcp?.close()]);
    for (const server of [allowed?.server, other?.server, secure?.server, tokenEndpoint]) server?.close();
    await db?.drop();
    if (certDir) rmSync(certDir, { recursive: true, force: true });
  });

  it('bash sees a placeholder; the secret reaches only the allowed hosts, over HTTP and HTTPS', async () => {
    const curl = (url: string) =>
      `curl -sS -m 10 --noproxy '' -H "Authorization: Bearer $SERVICE_TOKEN" --data "key=$SERVICE_TOKEN" ${url}`;
    const commands = [
      'echo "token=$SERVICE_TOKEN"',
      curl(`http://127.0.0.1:${allowed.port}/`),
      curl(`http://127.0.0.1:${other.port}/`),
      curl(`https://127.0.0.1:${secure.port}/`),
    ];
    const script = {
      turns: [
        {
          reply: [...commands.map((command) => ({ toolCall: { name: 'bash', input: { command } } })), 'done'],
        },
      ],
    };
    const agent = await client.beta.agents.create({
      name: 'egress user',
      model: { id: 'scripted', script } as never,
      tools: [{ type: 'agent_toolset_20260401' }],
    });
    const vault = await client.beta.vaults.create({ display_name: 'service secrets' });
    const credential = await client.beta.vaults.credentials.create(vault.id, {
      auth: {
        type: 'environment_variable',
        secret_name: 'SERVICE_TOKEN',
        secret_value: SECRET,
        networking: {
          type: 'limited',
          allowed_hosts: [`127.0.0.1:${allowed.port}`, `127.0.0.1:${secure.port}`],
        },
        injection_location: { header: true, body: true },
      },
    });
    const env = await client.beta.environments.create({ name: 'egress env', config: { type: 'cloud' } });
    const session = await client.beta.sessions.create({
      agent: agent.id,
      environment_id: env.id,
      vault_ids: [vault.id],
    });
    responses.push(agent, vault, credential, env, session);

    const turn = await say(session.id, 'go');
    const results = turn.filter((e) => e.type === 'agent.tool_result');
    expect(results.map((r) => r.is_error)).toEqual([false, false, false, false]);
    const echoed = textOf(results[0]);
    expect(echoed).toMatch(/^token=agentry_placeholder_[0-9a-f]{32}$/);
    const placeholder = echoed.slice('token='.length);
    expect(results.slice(1).map(textOf)).toEqual(['ok', 'ok', 'ok']);

    const bearer = (token: string): unknown => expect.objectContaining({ authorization: `Bearer ${token}` });
    expect(allowed.seen).toEqual([
      expect.objectContaining({
        headers: bearer(SECRET),
        body: `key=${SECRET}`,
      }),
    ]);
    expect(secure.seen).toEqual([
      expect.objectContaining({
        headers: bearer(SECRET),
        body: `key=${SECRET}`,
      }),
    ]);
    expect(other.seen).toEqual([
      expect.objectContaining({
        headers: bearer(placeholder),
        body: `key=${placeholder}`,
      }),
    ]);
  });

  it('refreshes an mcp_oauth token the server refuses, keeps the new one, and the call succeeds', async () => {
    const script = {
      turns: [{ reply: [{ toolCall: { name: 'mcp__secure__echo', input: { text: 'hello' } } }, 'Echoed.'] }],
    };
    const agent = await client.beta.agents.create({
      name: 'oauth user',
      model: { id: 'scripted', script } as never,
      mcp_servers: [{ type: 'url', name: 'secure', url: mcp.url }],
      tools: [
        {
          type: 'mcp_toolset',
          mcp_server_name: 'secure',
          default_config: { permission_policy: { type: 'always_allow' } },
        },
      ],
    });
    const vault = await client.beta.vaults.create({ display_name: 'oauth' });
    const credential = await client.beta.vaults.credentials.create(vault.id, {
      auth: {
        type: 'mcp_oauth',
        mcp_server_url: mcp.url,
        access_token: OAUTH_SECRETS.expired,
        refresh: {
          client_id: 'agentry-test',
          refresh_token: OAUTH_SECRETS.refresh,
          token_endpoint: `http://127.0.0.1:${(tokenEndpoint.address() as AddressInfo).port}/token`,
          token_endpoint_auth: { type: 'client_secret_post', client_secret: OAUTH_SECRETS.client },
        },
      },
    });
    const env = await client.beta.environments.create({ name: 'oauth env', config: { type: 'cloud' } });
    responses.push(agent, vault, credential, env);

    const first = await client.beta.sessions.create({
      agent: agent.id,
      environment_id: env.id,
      vault_ids: [vault.id],
    });
    const turn = await say(first.id, 'echo hello');
    expect(turn.find((e) => e.type === 'agent.mcp_tool_result')).toMatchObject({ is_error: false });
    expect(textOf(turn.find((e) => e.type === 'agent.mcp_tool_result'))).toBe('echo: hello');
    expect(turn.some((e) => e.type === 'session.error')).toBe(false);
    expect(mcp.seenAuthorization).toContain(`Bearer ${OAUTH_SECRETS.expired}`);
    expect(mcp.seenAuthorization.at(-1)).toBe(`Bearer ${OAUTH_SECRETS.fresh}`);
    expect(tokenRequests).toHaveLength(1);

    // The refreshed token was kept: a new session connects with it, without another refresh.
    const refreshed = await client.beta.vaults.credentials.retrieve(credential.id, { vault_id: vault.id });
    responses.push(refreshed);
    expect((refreshed.auth as { expires_at?: string | null }).expires_at).toBeTruthy();
    const second = await client.beta.sessions.create({
      agent: agent.id,
      environment_id: env.id,
      vault_ids: [vault.id],
    });
    const again = await say(second.id, 'echo hello');
    expect(textOf(again.find((e) => e.type === 'agent.mcp_tool_result'))).toBe('echo: hello');
    expect(tokenRequests).toHaveLength(1);
  });

  it('a refresh the token endpoint refuses is a session.error and a clear tool error', async () => {
    const script = {
      turns: [
        {
          reply: [{ toolCall: { name: 'mcp__revoked__echo', input: { text: 'hello' } } }, 'The echo failed.'],
        },
      ],
    };
    const agent = await client.beta.agents.create({
      name: 'revoked oauth user',
      model: { id: 'scripted', script } as never,
      mcp_servers: [{ type: 'url', name: 'revoked', url: revokedMcp.url }],
      tools: [
        {
          type: 'mcp_toolset',
          mcp_server_name: 'revoked',
          default_config: { permission_policy: { type: 'always_allow' } },
          configs: [{ name: 'echo' }],
        },
      ],
    });
    const vault = await client.beta.vaults.create({ display_name: 'revoked oauth' });
    const credential = await client.beta.vaults.credentials.create(vault.id, {
      auth: {
        type: 'mcp_oauth',
        mcp_server_url: revokedMcp.url,
        access_token: OAUTH_SECRETS.expired,
        refresh: {
          client_id: 'agentry-test',
          refresh_token: OAUTH_SECRETS.revoked,
          token_endpoint: `http://127.0.0.1:${(tokenEndpoint.address() as AddressInfo).port}/token`,
          token_endpoint_auth: { type: 'client_secret_post', client_secret: OAUTH_SECRETS.client },
        },
      },
    });
    const env = await client.beta.environments.create({ name: 'revoked env', config: { type: 'cloud' } });
    const session = await client.beta.sessions.create({
      agent: agent.id,
      environment_id: env.id,
      vault_ids: [vault.id],
    });
    responses.push(agent, vault, credential, env, session);

    const turn = await say(session.id, 'echo hello');
    const error = turn.find((e) => e.type === 'session.error');
    expect(error).toMatchObject({
      error: {
        type: 'mcp_authentication_failed_error',
        mcp_server_name: 'revoked',
        retry_status: { type: 'terminal' },
      },
    });
    const message = (error!.error as { message: string }).message;
    expect(message).toContain(credential.id);
    expect(message).toMatch(/refused the refresh \(HTTP 400: invalid_grant\)/);
    const result = turn.find((e) => e.type === 'agent.mcp_tool_result');
    expect(result).toMatchObject({ is_error: true });
    expect(textOf(result)).toMatch(
      new RegExp(
        `MCP server "revoked".*vault credential ${credential.id}.*refreshing it failed.*invalid_grant`,
      ),
    );
    expect(turn.filter((e) => e.type === 'agent.message').map(textOf)).toContain('The echo failed.');
    expect(turn.find((e) => e.type === 'session.status_idle')).toMatchObject({
      stop_reason: { type: 'end_turn' },
    });
  });

  it('no secret shows in any event, API response or service log', () => {
    const secrets = [SECRET, ...Object.values(OAUTH_SECRETS)];
    const answered = JSON.stringify(responses);
    const logDir = dirname(platform.workdirRoot);
    const logs = readdirSync(logDir).filter((f) => f.endsWith('.log'));
    expect(logs.length).toBeGreaterThanOrEqual(5);
    const logText = logs.map((f) => readFileSync(join(logDir, f), 'utf8')).join('\n');
    for (const secret of secrets) {
      expect(answered.includes(secret), `a response holds ${secret.split('-')[0]}`).toBe(false);
      expect(logText.includes(secret), `a log holds ${secret.split('-')[0]}`).toBe(false);
    }
    expect(answered).toContain('agentry_placeholder_');
  });
});
