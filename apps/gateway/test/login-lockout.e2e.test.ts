import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import type { ErrorReply } from './wire-types.js';

const LOCKOUT_SECONDS = 30;

/** A login sent from a chosen loopback address, so the gateway sees two different clients. */
function loginFrom(
  gatewayUrl: string,
  localAddress: string,
  username: string,
  password: string,
): Promise<{ status: number; retryAfter: string | undefined; body: unknown }> {
  const url = new URL('/api/auth/login', gatewayUrl);
  const payload = JSON.stringify({ username, password });
  return new Promise((resolve, reject) => {
    const call = request(
      {
        host: '127.0.0.1',
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            retryAfter: response.headers['retry-after'],
            body: JSON.parse(text) as unknown,
          }),
        );
      },
    );
    call.on('error', reject);
    call.end(payload);
  });
}

describe('login throttling per username and client address', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({
      databaseUrl: db.url,
      env: { AGENTRY_LOGIN_MAX_FAILURES: '3', AGENTRY_LOGIN_LOCKOUT_SECONDS: String(LOCKOUT_SECONDS) },
      readyTimeoutMs: 300_000,
    });
    const admin = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    const created = await admin.post('/api/admin/users', {
      username: 'quinn',
      password: 'quinn-password-1',
      role: 'member',
    });
    expect([200, 201]).toContain(created.status);
    // Five services start on a shared machine; start-up alone can take minutes there.
  }, 400_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  it('locks a username for the address that guessed, not for its owner elsewhere; a success resets the count', async () => {
    const guesser = (password: string) => loginFrom(platform.gatewayUrl, '127.0.0.1', 'quinn', password);
    const owner = (password: string) => loginFrom(platform.gatewayUrl, '127.0.0.2', 'quinn', password);
    expect((await guesser('wrong-1')).status).toBe(401);
    expect((await guesser('wrong-2')).status).toBe(401);
    const locked = await guesser('wrong-3');
    expect(locked.status).toBe(429);
    expect(Number(locked.retryAfter)).toBeGreaterThan(0);
    expect(Number(locked.retryAfter)).toBeLessThanOrEqual(LOCKOUT_SECONDS);
    expect(locked.body).toMatchObject({
      type: 'error',
      error: { type: 'rate_limit_error', code: 'RATE_LIMITED' },
    });
    expect((locked.body as ErrorReply).error.message).toMatch(
      /Too many failed logins for this user from this address; try again in \d+ s/,
    );
    // Locked means locked: the right password from the guessing address is refused too.
    expect((await guesser('quinn-password-1')).status).toBe(429);
    // The owner, from another address, is not locked out by the guessing.
    expect((await owner('quinn-password-1')).status).toBe(200);
    // Two wrong, one right: the count starts again, so two more wrong passwords do not lock.
    expect((await owner('typo-1')).status).toBe(401);
    expect((await owner('typo-2')).status).toBe(401);
    expect((await owner('quinn-password-1')).status).toBe(200);
    expect((await owner('typo-3')).status).toBe(401);
    expect((await owner('typo-4')).status).toBe(401);
    expect((await owner('quinn-password-1')).status).toBe(200);
  });
});
