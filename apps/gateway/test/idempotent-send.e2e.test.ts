import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import { NatsInterceptingProxy } from './nats-intercepting-proxy.js';
import type { Created, Page, SessionEvent, SessionState } from './wire-types.js';

/** The gateway's request/reply connection, by the name it gives NATS. */
const GATEWAY_RPC = 'gateway-rpc';
const RPC_TIMEOUT_MS = 4_000;

type Surface = {
  name: string;
  path: (sessionId: string) => string;
  body: (text: string) => unknown;
  /** The ids of the events a send reply reports. */
  ids: (body: unknown) => string[];
};

const SURFACES: Surface[] = [
  {
    name: '/v1',
    path: (sessionId) => `/v1/sessions/${sessionId}/events`,
    body: (text) => ({ events: [{ type: 'user.message', content: [{ type: 'text', text }] }] }),
    ids: (body) => (body as Page<Created>).data.map((e) => e.id),
  },
  {
    name: '/api',
    path: (sessionId) => `/api/sessions/${sessionId}/events`,
    body: (text) => ({ events: [{ type: 'user.message', payload: { text } }] }),
    ids: (body) => (body as Created[]).map((e) => e.id),
  },
];

/**
 * A message whose append committed but whose reply never reached the gateway: the client saw a 503
 * and retries with the same Idempotency-Key. The session must hold the message once and run one turn.
 */
describe('sending a message again after its reply was lost', () => {
  let db: TestDatabase;
  let proxy: NatsInterceptingProxy;
  let platform: RunningPlatform;
  let api: ApiClient;
  let agentId: string;
  let environmentId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    proxy = await NatsInterceptingProxy.start();
    platform = await launchPlatform({
      databaseUrl: db.url,
      natsUrl: proxy.url,
      env: { AGENTRY_RPC_TIMEOUT_MS: String(RPC_TIMEOUT_MS) },
    });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    agentId = (await api.post<Created>('/v1/agents', { name: 'echo', model: 'scripted' })).body.id;
    environmentId = (
      await api.post<Created>('/v1/environments', { name: 'local', config: { type: 'local' } })
    ).body.id;
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
    await proxy?.stop();
    await db?.drop();
  });

  const typesOf = async (sessionId: string): Promise<string[]> =>
    (await api.get<Page<SessionEvent>>(`/v1/sessions/${sessionId}/events?limit=1000`)).body.data.map(
      (e) => e.type,
    );
  const count = (types: string[], type: string) => types.filter((t) => t === type).length;

  it.each(SURFACES)(
    '$name: the retry gets the committed message back, and the session answers it once',
    async (surface) => {
      const sessionId = (
        await api.post<Created>('/v1/sessions', { agent: agentId, environment_id: environmentId })
      ).body.id;
      const text = `once only ${randomUUID()}`;
      const headers = { 'idempotency-key': randomUUID() };

      // The dataplane commits the message; its reply to the gateway is lost on the way.
      const droppedBefore = proxy.dropped;
      proxy.drop = { client: GATEWAY_RPC, subject: /^_INBOX\./, payload: new RegExp(text) };
      let first;
      try {
        first = await api.post(surface.path(sessionId), surface.body(text), headers);
      } finally {
        proxy.drop = null;
      }
      expect(proxy.dropped).toBeGreaterThan(droppedBefore);
      expect(first.status).toBe(503);

      const retry = await api.post(surface.path(sessionId), surface.body(text), headers);
      expect(retry.status).toBe(200);

      await vi.waitFor(
        async () => expect(count(await typesOf(sessionId), 'session.status_idle')).toBeGreaterThan(0),
        { timeout: 30_000, interval: 200 },
      );
      const listed = (await api.get<Page<SessionEvent>>(`/v1/sessions/${sessionId}/events?limit=1000`)).body
        .data;
      const messages = listed.filter((e) => e.type === 'user.message');
      expect(messages).toHaveLength(1);
      expect(surface.ids(retry.body)).toEqual([messages[0]!.id]);
      // Idle now, with the one turn that message started: one running spell, one answer.
      const session = await api.get<SessionState>(`/v1/sessions/${sessionId}`);
      expect(session.body.status).toBe('idle');
      const types = listed.map((e) => e.type);
      expect(count(types, 'session.status_running')).toBe(1);
      expect(count(types, 'agent.message')).toBe(1);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');

      // The same key with another message is refused, and appends nothing.
      const other = await api.post(surface.path(sessionId), surface.body('something else'), headers);
      expect(other.status).toBe(409);
      expect(count(await typesOf(sessionId), 'user.message')).toBe(1);
    },
    90_000,
  );
});
