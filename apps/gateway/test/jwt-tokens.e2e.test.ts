import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  registerSecret,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import { keyIdOf } from '../src/auth/jwt-keys.js';
import type { ErrorReply } from './wire-types.js';

const OLD_SECRET = randomBytes(24).toString('hex');
const NEW_SECRET = randomBytes(24).toString('hex');
// The first is handed to the launcher, which registers it; this one only to a restarted gateway.
registerSecret('JWT signing key', NEW_SECRET);

const headerOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8')) as { kid?: string };
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { jti?: string };

describe('user tokens: key ids, rotation without logging anyone out, revocation on logout and password change', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let first: string;
  let second: string;

  const tokenAt = async (url: string, username: string, password: string) => {
    const response = await new ApiClient(url).post<{ token: string }>('/api/auth/login', {
      username,
      password,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.token;
  };
  const statusAt = async (url: string, token: string) =>
    (await new ApiClient(url).as({ token }).get('/v1/agents?limit=1')).status;

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({
      databaseUrl: db.url,
      env: { AGENTRY_JWT_SECRET: OLD_SECRET },
      replicas: { gateway: 2 },
      readyTimeoutMs: 300_000,
    });
    [first, second] = platform.replicasOf('gateway').map((p) => p.url) as [string, string];
    const admin = new ApiClient(first).as({ token: await tokenAt(first, 'admin', 'admin') });
    for (const username of ['lou', 'pat']) {
      registerSecret('user password', `${username}-password-1`);
      const created = await admin.post('/api/admin/users', {
        username,
        password: `${username}-password-1`,
        role: 'member',
      });
      expect([200, 201]).toContain(created.status);
    }
    // Five services start on a shared machine; start-up alone can take minutes there.
  }, 400_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  it('signs with a kid and a jti; logout revokes that token on every replica at once, other tokens of the user live on', async () => {
    const token = await tokenAt(first, 'lou', 'lou-password-1');
    const other = await tokenAt(first, 'lou', 'lou-password-1');
    expect(headerOf(token).kid).toBe(keyIdOf(OLD_SECRET));
    expect(claimsOf(token).jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(claimsOf(token).jti).not.toBe(claimsOf(other).jti);
    // Both replicas have the token's actor cached before the logout.
    expect([await statusAt(first, token), await statusAt(second, token)]).toEqual([200, 200]);
    const logout = await new ApiClient(first).as({ token }).post('/api/auth/logout');
    expect(logout.status).toBe(200);
    const startedAt = Date.now();
    let onSecond = await statusAt(second, token);
    while (onSecond === 200 && Date.now() - startedAt < 3_000) onSecond = await statusAt(second, token);
    console.log(`logout took effect on the other replica after ${Date.now() - startedAt} ms`);
    expect(onSecond).toBe(401);
    const refused = await new ApiClient(first).as({ token }).get<ErrorReply>('/v1/agents?limit=1');
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toMatch(/revoked/);
    expect([await statusAt(first, other), await statusAt(second, other)]).toEqual([200, 200]);
    // An API key cannot log out: it is revoked by its own route.
    const key = await new ApiClient(first)
      .as({ token: other })
      .post<{ key: string }>('/api/keys', { name: 'k', permissions: ['read'] });
    registerSecret('API key', key.body.key);
    expect((await new ApiClient(first).as({ apiKey: key.body.key }).post('/api/auth/logout')).status).toBe(
      403,
    );
  });

  it('a password change revokes every token of the user, on every replica', async () => {
    const tokens = [
      await tokenAt(first, 'pat', 'pat-password-1'),
      await tokenAt(second, 'pat', 'pat-password-1'),
    ];
    for (const token of tokens)
      expect([await statusAt(first, token), await statusAt(second, token)]).toEqual([200, 200]);
    const changed = await new ApiClient(second)
      .as({ token: tokens[0]! })
      .post('/api/auth/password', { currentPassword: 'pat-password-1', newPassword: 'pat-password-2' });
    expect(changed.status).toBe(200);
    const deadline = Date.now() + 3_000;
    let statuses: number[] = [];
    do
      statuses = [
        await statusAt(first, tokens[0]!),
        await statusAt(first, tokens[1]!),
        await statusAt(second, tokens[1]!),
      ];
    while (statuses.some((s) => s !== 401) && Date.now() < deadline);
    expect(statuses).toEqual([401, 401, 401]);
    const fresh = await tokenAt(first, 'pat', 'pat-password-2');
    expect([await statusAt(first, fresh), await statusAt(second, fresh)]).toEqual([200, 200]);
  });

  it('rotating the key keeps earlier tokens valid within the window, and refuses them after it', async () => {
    const gateway = platform.service('gateway');
    const before = await tokenAt(first, 'admin', 'admin');
    await gateway.stop();
    gateway.start({ AGENTRY_JWT_SECRET: NEW_SECRET, AGENTRY_JWT_PREVIOUS_SECRET: OLD_SECRET });
    await gateway.waitReady(300_000);
    expect(await statusAt(first, before)).toBe(200);
    const after = await tokenAt(first, 'admin', 'admin');
    expect(headerOf(after).kid).toBe(keyIdOf(NEW_SECRET));
    expect(await statusAt(first, after)).toBe(200);
    // The window closed: the previous key's tokens are refused, the current key's are not.
    await gateway.stop();
    gateway.start({
      AGENTRY_JWT_SECRET: NEW_SECRET,
      AGENTRY_JWT_PREVIOUS_SECRET: OLD_SECRET,
      AGENTRY_JWT_PREVIOUS_SECRET_ACCEPTED_UNTIL: new Date(Date.now() - 1000).toISOString(),
    });
    await gateway.waitReady(300_000);
    expect(await statusAt(first, before)).toBe(401);
    expect(await statusAt(first, after)).toBe(200);
  }, 700_000);
});
