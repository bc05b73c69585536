import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  pollUntil,
  repoRoot,
  ServiceProcess,
  testNatsUrl,
  testRedisUrl,
  testSubjectPrefix,
  type ServiceName,
  type TestDatabase,
} from '@agentry/testing';

interface Readiness {
  status: string;
  checks: Record<string, { status: string; error?: string }>;
}

/** Starting the platform: a taken port, and a gateway that says it is ready only once it can serve. */
describe('service start-up', () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  let logDir: string;
  let decoy: Server;
  const started: ServiceProcess[] = [];

  function service(name: ServiceName, port: number): ServiceProcess {
    const process_ = new ServiceProcess(name, port, repoRoot(), env, join(logDir, `${name}.log`));
    started.push(process_);
    return process_;
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    logDir = mkdtempSync(join(tmpdir(), 'agentry-start-up-'));
    env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      NODE_ENV: 'test',
      DATABASE_URL: db.url,
      REDIS_URL: testRedisUrl(),
      NATS_URL: testNatsUrl(),
      AGENTRY_ENV: `test-${randomBytes(6).toString('hex')}`,
      AGENTRY_SUBJECT_PREFIX: testSubjectPrefix(),
      AGENTRY_LOG_LEVEL: 'info',
      AGENTRY_JWT_SECRET: randomBytes(24).toString('hex'),
      AGENTRY_MASTER_KEY: randomBytes(32).toString('base64'),
      AGENTRY_WORKDIR_ROOT: logDir,
    };
    // Another process on the port picked for a service, answering every probe with success.
    decoy = createServer((_request, response) => {
      response.setHeader('agentry-pid', '1');
      response.end('{"status":"ok","checks":{}}');
    });
    await new Promise<void>((resolve) => decoy.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    await Promise.all(started.map((s) => s.stop()));
    await new Promise((resolve) => decoy?.close(resolve));
    await db?.drop();
  });

  it('starts a service again on a new port when another process holds its port', async () => {
    const taken = (decoy.address() as AddressInfo).port;
    const control = service('control', taken);
    control.start();
    await control.waitReady(60_000);

    expect(control.port).not.toBe(taken);
    const response = await fetch(`${control.url}/readyz`);
    expect(response.status).toBe(200);
    expect(response.headers.get('agentry-pid')).toBe(String(control.pid));
    expect(readFileSync(join(logDir, 'control.log'), 'utf8')).toContain('port already in use');
  });

  it('keeps the gateway unready until the services it routes to answer; a login right after ready succeeds', async () => {
    const gateway = service('gateway', await freePort());
    gateway.start();
    // Control runs (previous test); the dataplane does not yet. The gateway hears control's first beat
    // within half a second of starting; until then it names both.
    const early = await pollUntil('the gateway to hear from control', async () => {
      const response = await fetch(`${gateway.url}/readyz`).catch(() => undefined);
      if (!response) return undefined;
      const body = (await response.json()) as Readiness;
      return body.checks.services?.error?.includes('control') ? undefined : { status: response.status, body };
    });
    expect(early.status).toBe(503);
    expect(early.body.checks.services).toEqual({
      status: 'down',
      error: 'not heard from yet: dataplane',
    });

    const dataplane = service('dataplane', await freePort());
    dataplane.start();
    await gateway.waitReady(60_000);
    const login = await fetch(`${gateway.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'admin' }),
    });
    expect(login.status).toBe(200);
    expect(((await login.json()) as { token?: string }).token).toBeTruthy();
  });
});

async function freePort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
