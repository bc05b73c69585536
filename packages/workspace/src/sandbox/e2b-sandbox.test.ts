import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FakeE2bSandbox } from '../testing/fake-e2b-sandbox.js';
import { expectAppError } from '../testing/expect-app-error.js';
import { runWorkspaceConformance } from '../testing/workspace-conformance.js';
import { E2bSandbox } from './e2b-sandbox.js';

const dirs: string[] = [];
async function fake(options: ConstructorParameters<typeof E2bSandbox>[1] = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'ws-e2b-'));
  dirs.push(dir);
  const sandbox = new FakeE2bSandbox(dir);
  return {
    sandbox,
    fs: new E2bSandbox(sandbox, { defaultTimeoutMs: 10_000, ...options }),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

runWorkspaceConformance('e2b (fake envd)', async (options) => {
  const { fs, cleanup } = await fake(options);
  return { fs, cleanup };
});

describe('e2b command seam', () => {
  it('runs in the workspace directory with the given env and stdin', async () => {
    const { fs, sandbox } = await fake();
    await fs.mkdir('sub');
    const run = await fs.exec('pwd; echo "$NAME"; cat', {
      cwd: 'sub',
      env: { NAME: 'agentry' },
      stdin: 'piped input',
    });
    expect(run).toMatchObject({ exitCode: 0, timedOut: false, aborted: false });
    expect(run.stdout).toMatch(/\/home\/user\/workspace\/sub\nagentry\npiped input$/);
    expect(sandbox.runs[0]?.opts).toMatchObject({
      background: true,
      cwd: '/home/user/workspace/sub',
      envs: { NAME: 'agentry', HOME: '/home/user/workspace' },
    });
    await expectAppError(fs.exec('true', { env: { 'BAD-NAME': 'x' } }), 'INVALID_REQUEST');
    await expectAppError(fs.exec('true', { cwd: '../etc' }), 'PATH_ESCAPE');
  });

  it('reports non-zero exits that the SDK raises as errors', async () => {
    const { fs } = await fake();
    expect(await fs.exec('echo bad >&2; exit 7')).toMatchObject({ exitCode: 7, stderr: 'bad\n' });
  });

  it('kills the remote process on timeout and on abort', async () => {
    const { fs, sandbox } = await fake();
    const timed = await fs.exec('sleep 20', { timeoutMs: 300 });
    expect(timed).toMatchObject({ timedOut: true, exitCode: 124 });
    expect(sandbox.runs[0]?.killed).toBe(true);
    const controller = new AbortController();
    const running = fs.exec('sleep 20', { signal: controller.signal });
    await vi.waitFor(() => expect(sandbox.runs[1]).toBeDefined(), { interval: 5 });
    controller.abort();
    const aborted = await running;
    expect(aborted).toMatchObject({ aborted: true, exitCode: 130 });
    expect(sandbox.runs[1]?.killed).toBe(true);
  });

  it('caps streamed output', async () => {
    const { fs } = await fake();
    const run = await fs.exec('i=0; while [ $i -lt 2000 ]; do echo "row $i"; i=$((i+1)); done', {
      maxOutputBytes: 500,
    });
    expect(run.truncated).toBe(true);
    expect(run.stdout).toMatch(/^row 0\n[\s\S]*truncated[\s\S]*row 1999\n$/);
  });

  it('kills the sandbox on dispose by default, or pauses it when asked', async () => {
    const killed = await fake();
    const pending = killed.fs.exec('sleep 20');
    await vi.waitFor(() => expect(killed.sandbox.runs[0]).toBeDefined(), { interval: 5 });
    await killed.fs.dispose();
    expect((await pending).aborted).toBe(true);
    expect(killed.sandbox.killed).toBe(true);
    await expectAppError(killed.fs.exec('true'), 'UNAVAILABLE');
    const paused = await fake({ onDispose: 'pause' });
    await paused.fs.dispose();
    expect(paused.sandbox).toMatchObject({ paused: true, killed: false });
  });
});

describe('e2b control plane (fake E2B API server)', () => {
  const calls: { method: string; url: string; headers: IncomingHttpHeaders; body: unknown }[] = [];
  let server: Server;
  let apiUrl: string;
  const sandboxJson = {
    sandboxID: 'sbx_123',
    templateID: 'agentry-base',
    clientID: 'client',
    envdVersion: '0.4.0',
    envdAccessToken: 'tok',
    domain: null,
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        calls.push({
          method: req.method!,
          url: req.url!,
          headers: req.headers,
          body: raw ? (JSON.parse(raw) as unknown) : undefined,
        });
        const send = (status: number, body?: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(body === undefined ? '' : JSON.stringify(body));
        };
        if (req.method === 'POST' && req.url === '/v2/sandboxes') return send(201, sandboxJson);
        if (req.method === 'POST' && req.url === '/v2/sandboxes/sbx_123/connect')
          return send(201, sandboxJson);
        if (req.method === 'POST' && req.url === '/sandboxes/sbx_123/pause') return send(204);
        if (req.method === 'DELETE' && req.url === '/sandboxes/sbx_123') return send(204);
        send(404, { code: 404, message: 'not found' });
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  afterEach(() => {
    calls.length = 0;
  });

  it('creates, pauses, reconnects and kills through the configured API URL', async () => {
    const created = await E2bSandbox.create({
      apiKey: 'e2b_test_key',
      apiUrl,
      template: 'agentry-base',
      sandboxTimeoutMs: 300_000,
      metadata: { session: 'sesn_1' },
    });
    expect(created.sandboxId).toBe('sbx_123');
    expect(calls[0]).toMatchObject({
      method: 'POST',
      url: '/v2/sandboxes',
      body: {
        templateID: 'agentry-base',
        timeout: 300,
        allow_internet_access: false,
        metadata: { session: 'sesn_1' },
      },
    });
    expect(calls[0]?.headers['x-api-key']).toBe('e2b_test_key');
    expect(await created.pause()).toBe(true);
    const again = await E2bSandbox.connect('sbx_123', { apiKey: 'e2b_test_key', apiUrl });
    expect(again.sandboxId).toBe('sbx_123');
    expect(await again.kill()).toBe(true);
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'POST /v2/sandboxes',
      'POST /sandboxes/sbx_123/pause',
      'POST /v2/sandboxes/sbx_123/connect',
      'DELETE /sandboxes/sbx_123',
    ]);
  });

  it('maps an unknown sandbox on connect to a typed failure', async () => {
    await expect(E2bSandbox.connect('sbx_missing', { apiKey: 'e2b_test_key', apiUrl })).rejects.toThrow(
      /not found/i,
    );
  });
});
