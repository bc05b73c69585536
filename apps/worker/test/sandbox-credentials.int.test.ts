import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxCredential } from '@agentry/contracts';
import { startHands, type Hands } from './sandbox-fixture.js';

const hasSandbox = existsSync('/usr/bin/bwrap') && existsSync('/usr/bin/socat');
const SECRET = 'int-secret-7f3a9c';

interface Recorder {
  server: Server;
  port: number;
  seen: Array<{ headers: IncomingMessage['headers']; body: string }>;
}

/** An HTTP server that keeps what it was sent and answers only "ok", so no secret comes back to the sandbox. */
async function recordingServer(): Promise<Recorder> {
  const seen: Recorder['seen'] = [];
  const server = createServer((req, res) => {
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

describe.runIf(hasSandbox)('environment_variable credentials in the sandbox', () => {
  let hands: Hands;
  let allowed: Recorder;
  let other: Recorder;

  beforeAll(async () => {
    allowed = await recordingServer();
    other = await recordingServer();
    const credential: SandboxCredential = {
      credential_id: 'vcrd_int',
      secret_name: 'SERVICE_TOKEN',
      secret_value: SECRET,
      networking: { type: 'limited', allowed_hosts: [`127.0.0.1:${allowed.port}`] },
      injection_location: { header: true, body: true },
    };
    hands = await startHands(
      { AGENTRY_SANDBOX_EGRESS_PRIVATE_ALLOWED: `127.0.0.1:${allowed.port},127.0.0.1:${other.port}` },
      [credential],
    );
  });

  afterAll(async () => {
    await hands?.stop();
    allowed?.server.close();
    other?.server.close();
  });

  it('shows bash a placeholder; the proxy swaps the secret in for the allowed host only', async () => {
    const echoed = hands.text(
      await hands.run('sess_cred', 'bash', { command: 'echo "token=$SERVICE_TOKEN"' }),
    );
    expect(echoed).toMatch(/^token=agentry_placeholder_[0-9a-f]{32}$/);
    const placeholder = echoed.slice('token='.length);

    const send = (port: number) =>
      `curl -sS -m 5 --noproxy '' -x "$HTTP_PROXY" -H "Authorization: Bearer $SERVICE_TOKEN" --data "key=$SERVICE_TOKEN" http://127.0.0.1:${port}/`;
    const results = [
      await hands.run('sess_cred', 'bash', { command: send(allowed.port) }),
      await hands.run('sess_cred', 'bash', { command: send(other.port) }),
    ];
    expect(results.map((r) => hands.text(r))).toEqual(['ok', 'ok']);

    expect(allowed.seen.at(-1)).toMatchObject({
      headers: { authorization: `Bearer ${SECRET}`, 'content-length': String(`key=${SECRET}`.length) },
      body: `key=${SECRET}`,
    });
    expect(other.seen.at(-1)).toMatchObject({
      headers: { authorization: `Bearer ${placeholder}` },
      body: `key=${placeholder}`,
    });
  });

  it("makes the sandbox trust the egress CA beside the worker's own trust store, and never shows it the CA key", async () => {
    const out = hands.text(
      await hands.run('sess_cred', 'bash', {
        command:
          'echo "$SSL_CERT_FILE $CURL_CA_BUNDLE $REQUESTS_CA_BUNDLE $NODE_EXTRA_CA_CERTS"; grep -c "BEGIN CERTIFICATE" /run/agentry/ca/agentry-egress-ca.crt; grep -c "BEGIN CERTIFICATE" "$NODE_EXTRA_CA_CERTS"; grep -rl "PRIVATE KEY" /run/agentry 2>/dev/null | wc -l',
      }),
    );
    const [variables, caCerts, bundleCerts, keys] = out.split('\n');
    expect(variables).toBe(Array(4).fill('/run/agentry/ca/ca-bundle.crt').join(' '));
    expect(caCerts).toBe('1');
    // The worker's trust store and the egress CA: Node trusts an installation's own CAs too.
    expect(Number(bundleCerts)).toBeGreaterThan(1);
    expect(keys).toBe('0');
  });

  it('swaps in nothing once the session lists no vaults', async () => {
    const seen = allowed.seen.length;
    const sent = await hands.run(
      'sess_cred',
      'bash',
      {
        command: `curl -sS -m 5 --noproxy '' -x "$HTTP_PROXY" -H "Authorization: Bearer $SERVICE_TOKEN" http://127.0.0.1:${allowed.port}/`,
      },
      { vaults: false },
    );
    expect(hands.text(sent)).toBe('ok');
    expect(allowed.seen).toHaveLength(seen + 1);
    expect(JSON.stringify(allowed.seen.at(-1))).not.toContain(SECRET);
  });
});

describe.runIf(hasSandbox)('while control does not answer for the vault credentials', () => {
  let hands: Hands;

  beforeAll(async () => {
    hands = await startHands({}, 'unanswered');
  });

  afterAll(async () => {
    await hands?.stop();
  });

  it('still runs the file tools, which need no credentials, and refuses a command', async () => {
    const written = await hands.run('sess_vault_down', 'write', { file_path: 'a.txt', content: 'kept\n' });
    expect(written.isError).toBe(false);
    const read = await hands.run('sess_vault_down', 'read', { file_path: 'a.txt' });
    expect(read.isError).toBe(false);
    expect(hands.text(read)).toContain('kept');

    const command = await hands.run('sess_vault_down', 'bash', { command: 'cat a.txt' });
    expect(command).toMatchObject({ isError: true, reason: 'credentials_unavailable' });
  });

  it('runs the command of a session that lists no vaults without asking control', async () => {
    const command = await hands.run('sess_vault_down', 'bash', { command: 'cat a.txt' }, { vaults: false });
    expect(command.isError).toBe(false);
    expect(hands.text(command)).toContain('kept');
  });
});
