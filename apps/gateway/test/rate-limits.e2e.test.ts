import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  pollUntil,
  SseClient,
  type ApiResponse,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import { openSession } from './outage-fixture.js';

const WINDOW_SECONDS = 4;
const PER_API_KEY = 12;
const PER_IP = 6;
const PER_DEPLOYMENT_WEBHOOK = 2;
const MAX_STREAMS = 2;

/** The part of the error envelope the refusals are checked by. */
interface ErrorEnvelope {
  error: { message: string };
}

interface Created {
  id: string;
}

describe('rate limits per API key, per client address, and on open event streams', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let anonymous: ApiClient;
  let admin: ApiClient;

  const newKey = async (name: string) => {
    const created = await admin.post<{ key: string }>('/api/keys', { name, permissions: ['read', 'write'] });
    expect(created.status).toBe(200);
    return anonymous.as({ apiKey: created.body.key });
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({
      databaseUrl: db.url,
      readyTimeoutMs: 300_000,
      env: {
        AGENTRY_RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
        AGENTRY_RATE_LIMIT_PER_API_KEY: String(PER_API_KEY),
        AGENTRY_RATE_LIMIT_PER_IP: String(PER_IP),
        AGENTRY_RATE_LIMIT_PER_DEPLOYMENT_WEBHOOK: String(PER_DEPLOYMENT_WEBHOOK),
        AGENTRY_SSE_MAX_CONNECTIONS_PER_PRINCIPAL: String(MAX_STREAMS),
      },
    });
    anonymous = new ApiClient(platform.gatewayUrl);
    admin = await anonymous.login('admin', 'admin');
    // Five services start on a shared machine; start-up alone can take minutes there.
  }, 400_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  it('answers 429 with retry-after and the error envelope once an API key spends its window, leaving other keys alone', async () => {
    const busy = await newKey('busy');
    const quiet = await newKey('quiet');
    const statuses: number[] = [];
    let refused: ApiResponse<ErrorEnvelope> | undefined;
    for (let i = 0; i < PER_API_KEY + 3; i++) {
      const response = await busy.get('/v1/agents?limit=1');
      statuses.push(response.status);
      if (response.status === 429) refused ??= response as ApiResponse<ErrorEnvelope>;
    }
    // The window may roll over during the loop; at least the requests past the limit in one window are refused.
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(PER_API_KEY);
    expect(refused, `statuses: ${statuses.join(',')}`).toBeDefined();
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused!.headers.get('retry-after'))).toBeLessThanOrEqual(WINDOW_SECONDS);
    expect(refused!.body).toMatchObject({
      type: 'error',
      error: { type: 'rate_limit_error', code: 'RATE_LIMITED' },
    });
    expect(refused!.body.error.message).toMatch(/per 4 s exceeded for this API key/);
    expect((await quiet.get('/v1/agents?limit=1')).status).toBe(200);
    // The window, kept in Redis, passes (within what Retry-After says, plus a margin) and the key works again.
    const retryAfterMs = Number(refused!.headers.get('retry-after')) * 1000;
    await vi.waitFor(async () => expect((await busy.get('/v1/agents?limit=1')).status).toBe(200), {
      timeout: retryAfterMs + 1_000,
      interval: 200,
    });
  });

  it('counts unauthenticated requests per client address, so the login route cannot be sprayed', async () => {
    const statuses: number[] = [];
    let refused: ApiResponse<ErrorEnvelope> | undefined;
    // Different usernames each time: the per-username lockout never trips, only the address limit can.
    for (let i = 0; i < PER_IP * 2 + 2; i++) {
      const response = await anonymous.post('/api/auth/login', { username: `spray-${i}`, password: 'guess' });
      statuses.push(response.status);
      if (response.status === 429) refused ??= response as ApiResponse<ErrorEnvelope>;
    }
    expect(refused, `statuses: ${statuses.join(',')}`).toBeDefined();
    expect(refused!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused!.body.error.message).toMatch(/exceeded for this client address/);
    // An authenticated caller is counted as itself, not as the address.
    expect((await admin.get('/v1/agents?limit=1')).status).toBe(200);
  });

  it("limits the runs one deployment webhook may start per window, leaving another deployment's webhook alone", async () => {
    const agent = await admin.post<Created>('/api/agents', { name: 'hooked', model: 'scripted' });
    const env = await admin.post<Created>('/api/environments', { name: 'hook env', type: 'remote' });
    const hookOf = async (name: string) => {
      const created = await admin.post<{ webhookToken: string }>('/api/deployments', {
        name,
        agentId: agent.body.id,
        environmentId: env.body.id,
        triggerType: 'webhook',
        text: 'a push happened',
      });
      expect(created.status).toBe(200);
      return `/api/deployments/webhook/${created.body.webhookToken}`;
    };
    const [noisy, calm] = [await hookOf('noisy'), await hookOf('calm')];
    // The address limit is spent by the spray above until its window passes: a login is heard again.
    const loginHeard = async () =>
      (await anonymous.post('/api/auth/login', { username: 'window-probe', password: 'guess' })).status !==
      429;
    await pollUntil('the address window to pass', loginHeard, WINDOW_SECONDS * 1000 + 1_000, {
      everyMs: 200,
    });
    const statuses: number[] = [];
    let refused: ApiResponse<ErrorEnvelope> | undefined;
    for (let i = 0; i < PER_DEPLOYMENT_WEBHOOK + 1; i++) {
      const response = await anonymous.post(noisy, {});
      statuses.push(response.status);
      if (response.status === 429) refused ??= response as ApiResponse<ErrorEnvelope>;
    }
    expect(statuses).toEqual([...Array<number>(PER_DEPLOYMENT_WEBHOOK).fill(200), 429]);
    expect(refused!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused!.body.error.message).toMatch(/exceeded for this deployment webhook/);
    expect((await anonymous.post(calm, {})).status).toBe(200);
  });

  it('caps open event streams per API key across the gateway and gives a slot back when a client disconnects', async () => {
    const streamer = await newKey('streamer');
    const sessionId = await openSession(admin);
    const url = `${platform.gatewayUrl}/v1/sessions/${sessionId}/events/stream`;
    const open = [
      await SseClient.open(url, streamer.authHeaders),
      await SseClient.open(url, streamer.authHeaders),
    ];
    expect(open.map((s) => s.status)).toEqual([200, 200]);
    const third = await SseClient.open(url, streamer.authHeaders);
    expect(third.status).toBe(429);
    const envelope = JSON.parse(third.frames[0]!.data) as ErrorEnvelope;
    expect(envelope).toMatchObject({
      type: 'error',
      error: { type: 'rate_limit_error', code: 'RATE_LIMITED' },
    });
    expect(envelope.error.message).toMatch(/at most 2 per API key or user/);
    // Another principal is not affected by this key's streams.
    const adminStream = await SseClient.open(url, admin.authHeaders);
    expect(adminStream.status).toBe(200);
    await adminStream.close();
    // Closing one stream frees its slot promptly (the gateway sees the socket close).
    await open[0]!.close();
    let reopened: SseClient | undefined;
    await pollUntil(
      'a stream slot to be free again',
      async () => (reopened = await SseClient.open(url, streamer.authHeaders)).status === 200,
      5_000,
    ).catch(() => undefined);
    expect(reopened?.status).toBe(200);
    await Promise.all([reopened!.close(), open[1]!.close()]);
  });
});
