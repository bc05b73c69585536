import Anthropic from '@anthropic-ai/sdk';
import type { BetaWebhookEvent } from '@anthropic-ai/sdk/resources/beta/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  pollUntil,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import { WebhookReceiver, type ReceivedDelivery } from './webhook-receiver.js';

/** A webhook endpoint on /v1, as far as the tests read it. */
interface Endpoint {
  id: string;
  name: string;
  state: string;
  signing_secret: string;
  previous_secret_expires_at?: string | null;
  disabled_reason?: string | null;
}

/** A webhook endpoint on /api, in camelCase. */
interface ApiEndpoint {
  id: string;
  signingSecret: string;
}

interface Delivery {
  id: string;
  status: string;
  event_id: string;
  attempts: number;
  attempt_log: Array<{ attempt: number; response_status_code: number | null; latency_ms: number }>;
}

interface Page<T> {
  data: T[];
}

interface ErrorEnvelope {
  type: string;
  error: { message: string };
}

/**
 * Outbound webhooks across the five services: control keeps the endpoints, the dataplane and control hand
 * events to the scheduler, which signs and delivers them to a real HTTP receiver on loopback (its host and
 * port alone allowed by config here, so every other loopback address is still refused). Every delivery is verified with the official SDK's `webhooks.unwrap`.
 */
describe('outbound webhooks', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let client: Anthropic;
  let token: string;
  const receiver = new WebhookReceiver();

  /** One call as the admin, its reply's JSON read as `T`. */
  async function call<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${platform.gatewayUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
  }

  async function createEndpoint(path: string, events: string[], extra: object = {}) {
    const created = await call<Endpoint>('POST', '/v1/webhooks', {
      url: receiver.url(path),
      enabled_events: events,
      ...extra,
    });
    expect(created.status).toBe(200);
    return created.body;
  }

  function unwrap(delivery: ReceivedDelivery, key: string): BetaWebhookEvent {
    return client.beta.webhooks.unwrap(delivery.body, { headers: delivery.headers, key });
  }

  /** The delivery to `path` of the event about resource `id` (an event fanned out late may come first). */
  function deliveryOf(path: string, id: string): ReceivedDelivery | undefined {
    return receiver.at(path).find((d) => (JSON.parse(d.body) as BetaWebhookEvent).data.id === id);
  }

  beforeAll(async () => {
    await receiver.start();
    db = await createTestDatabase();
    platform = await launchPlatform({
      databaseUrl: db.url,
      env: {
        AGENTRY_WEBHOOK_ALLOWED_HOSTS: new URL(receiver.url('/')).host,
        AGENTRY_WEBHOOK_BACKOFF_MS: '50',
        AGENTRY_WEBHOOK_MAX_ATTEMPTS: '5',
        AGENTRY_WEBHOOK_DISABLE_AFTER_FAILURES: '2',
      },
    });
    const login = await new ApiClient(platform.gatewayUrl).post<{ token: string }>('/api/auth/login', {
      username: 'admin',
      password: 'admin',
    });
    token = login.body.token;
    client = new Anthropic({ baseURL: platform.gatewayUrl, authToken: token, apiKey: null, maxRetries: 0 });
  });

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
    await receiver.stop();
  });

  it("delivers a session's lifecycle, each delivery verified and parsed by the official SDK", async () => {
    const endpoint = await createEndpoint('/lifecycle', [
      'session.created',
      'session.status_run_started',
      'session.status_idled',
      'session.archived',
    ]);
    const agent = await client.beta.agents.create({ name: 'hooked', model: 'scripted' });
    const env = await client.beta.environments.create({ name: 'hooked env', config: { type: 'cloud' } });
    const session = await client.beta.sessions.create({ agent: agent.id, environment_id: env.id });
    await client.beta.sessions.events.send(session.id, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'hello hooks' }] }],
    });
    // A new session already reads idle; the turn has ended only once the stop reason says so.
    await pollUntil('the turn ends', async () => {
      const { stop_reason } = (await client.beta.sessions.retrieve(session.id)) as unknown as {
        stop_reason?: { type?: string } | null;
      };
      return stop_reason?.type === 'end_turn' ? true : undefined;
    });
    await client.beta.sessions.archive(session.id);

    const deliveries = await pollUntil('four lifecycle deliveries', () => {
      const got = receiver.at('/lifecycle');
      return got.length >= 4 ? got : undefined;
    });
    const events = deliveries.map((d) => unwrap(d, endpoint.signing_secret));
    expect(events.map((e) => e.data.type).sort()).toEqual(
      ['session.archived', 'session.created', 'session.status_idled', 'session.status_run_started'].sort(),
    );
    for (const [i, event] of events.entries()) {
      expect(event.type).toBe('event');
      expect(event.data).toMatchObject({ id: session.id });
      expect('organization_id' in event.data && event.data.organization_id).toBeTruthy();
      expect(deliveries[i]!.headers['webhook-id']).toBe(event.id);
    }
    // A delivery signed with any other key fails verification.
    expect(() => unwrap(deliveries[0]!, `whsec_${Buffer.alloc(24, 1).toString('base64')}`)).toThrow();
  });

  it('retries a receiver that fails three times, delivers once, records every attempt, and redelivers', async () => {
    receiver.program('/flaky', [500, 503, 500]);
    const endpoint = await createEndpoint('/flaky', ['agent.created']);
    const agent = await client.beta.agents.create({ name: 'flaky-subject', model: 'scripted' });

    const delivery = await pollUntil('the delivery succeeds', async () => {
      const page = await call<Page<Delivery>>('GET', `/v1/webhooks/${endpoint.id}/deliveries`);
      const found = page.body.data[0];
      return found?.status === 'succeeded' ? found : undefined;
    });
    const requests = receiver.at('/flaky');
    expect(requests.map((r) => r.status)).toEqual([500, 503, 500, 200]);
    expect(requests.filter((r) => r.status === 200)).toHaveLength(1);
    expect(new Set(requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([delivery.event_id]));
    expect(unwrap(requests[3]!, endpoint.signing_secret).data).toMatchObject({
      type: 'agent.created',
      id: agent.id,
    });
    expect(delivery).toMatchObject({ attempts: 4, response_status_code: 200, event_type: 'agent.created' });
    expect(delivery.attempt_log.map((a) => [a.attempt, a.response_status_code])).toEqual([
      [1, 500],
      [2, 503],
      [3, 500],
      [4, 200],
    ]);
    expect(delivery.attempt_log.every((a) => Number.isInteger(a.latency_ms))).toBe(true);

    const redelivered = await call('POST', `/v1/webhooks/${endpoint.id}/deliveries/${delivery.id}/redeliver`);
    expect(redelivered.status).toBe(200);
    await pollUntil('the redelivery arrives', () => receiver.at('/flaky').length === 5);
    expect(receiver.at('/flaky')[4]!.headers['webhook-id']).toBe(delivery.event_id);
  });

  it('signs with the rotated-out secret too during the grace period, and not after a rotation without one', async () => {
    const endpoint = await createEndpoint('/rotated', ['agent.created']);
    const rotated = await call<Endpoint>('POST', `/v1/webhooks/${endpoint.id}/regenerate_signing_secret`, {
      grace_period_seconds: 3600,
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.signing_secret).not.toBe(endpoint.signing_secret);
    const one = await client.beta.agents.create({ name: 'rotation-one', model: 'scripted' });
    const first = await pollUntil('a delivery after the rotation', () => deliveryOf('/rotated', one.id));
    expect(unwrap(first, endpoint.signing_secret).data.type).toBe('agent.created');
    expect(unwrap(first, rotated.body.signing_secret).data.type).toBe('agent.created');

    const again = await call<Endpoint>('POST', `/v1/webhooks/${endpoint.id}/regenerate_signing_secret`, {
      grace_period_seconds: 0,
    });
    expect(again.body.previous_secret_expires_at).toBeNull();
    const two = await client.beta.agents.create({ name: 'rotation-two', model: 'scripted' });
    const second = await pollUntil('a delivery after the second rotation', () =>
      deliveryOf('/rotated', two.id),
    );
    expect(unwrap(second, again.body.signing_secret).data.type).toBe('agent.created');
    expect(() => unwrap(second, rotated.body.signing_secret)).toThrow();
  });

  it('disables an endpoint whose deliveries keep failing, and says why', async () => {
    receiver.program('/dead', 'always-fail');
    const endpoint = await createEndpoint('/dead', ['environment.created']);
    await client.beta.environments.create({ name: 'dead one', config: { type: 'cloud' } });
    await client.beta.environments.create({ name: 'dead two', config: { type: 'cloud' } });

    const disabled = await pollUntil(
      'the endpoint is disabled',
      async () => {
        const got = await call<Endpoint>('GET', `/v1/webhooks/${endpoint.id}`);
        return got.body.state === 'disabled' ? got.body : undefined;
      },
      60_000,
    );
    expect(disabled.disabled_reason).toMatch(/2 deliveries in a row failed/);
    const log = await call<Page<Delivery>>('GET', `/v1/webhooks/${endpoint.id}/deliveries`);
    expect(log.body.data.map((d) => [d.status, d.attempts])).toEqual([
      ['failed', 5],
      ['failed', 5],
    ]);
    // Disabled: later events are not delivered to it. The sentinel subscribes first, so the event reaching
    // it proves the fan-out ran, and that fan-out wrote every delivery it made before queueing any.
    const before = receiver.at('/dead').length;
    const sentinel = await createEndpoint('/sentinel', ['environment.created']);
    const later = await client.beta.environments.create({ name: 'dead three', config: { type: 'cloud' } });
    const got = await pollUntil('the sentinel gets the later event', () => deliveryOf('/sentinel', later.id));
    expect(unwrap(got, sentinel.signing_secret).data.type).toBe('environment.created');
    const after = await call<Page<Delivery>>('GET', `/v1/webhooks/${endpoint.id}/deliveries`);
    expect(after.body.data).toHaveLength(2);
    expect(receiver.at('/dead').length).toBe(before);
  });

  it('announces a deployment run starting and succeeding', async () => {
    const endpoint = await createEndpoint('/runs', ['deployment_run.started', 'deployment_run.succeeded']);
    const agent = await client.beta.agents.create({ name: 'deployed', model: 'scripted' });
    const env = await client.beta.environments.create({ name: 'deployed env', config: { type: 'cloud' } });
    const deployment = await client.beta.deployments.create({
      name: 'hooked deployment',
      agent: agent.id,
      environment_id: env.id,
      initial_events: [{ type: 'user.message', content: [{ type: 'text', text: 'go' }] }],
    });
    const run = await client.beta.deployments.run(deployment.id);
    const deliveries = await pollUntil('both run deliveries', () => {
      const got = receiver.at('/runs');
      return got.length >= 2 ? got : undefined;
    });
    const events = deliveries.map((d) => unwrap(d, endpoint.signing_secret).data);
    expect(events.map((e) => e.type).sort()).toEqual(['deployment_run.started', 'deployment_run.succeeded']);
    expect(events.every((e) => e.id === run.id)).toBe(true);
  });

  it('announces each change of a deployment and of a vault credential', async () => {
    const deploymentEvents = [
      'deployment.created',
      'deployment.updated',
      'deployment.paused',
      'deployment.unpaused',
      'deployment.archived',
    ];
    const credentialEvents = [
      'vault_credential.created',
      'vault_credential.archived',
      'vault_credential.deleted',
    ];
    const endpoint = await createEndpoint('/changes', [...deploymentEvents, ...credentialEvents]);
    const agent = await client.beta.agents.create({ name: 'changed', model: 'scripted' });
    const env = await client.beta.environments.create({ name: 'changed env', config: { type: 'cloud' } });
    const deployment = await client.beta.deployments.create({
      name: 'changing deployment',
      agent: agent.id,
      environment_id: env.id,
      initial_events: [{ type: 'user.message', content: [{ type: 'text', text: 'go' }] }],
    });
    await client.beta.deployments.update(deployment.id, { name: 'changed deployment' });
    await client.beta.deployments.pause(deployment.id);
    await client.beta.deployments.unpause(deployment.id);
    await client.beta.deployments.archive(deployment.id);
    const vault = await client.beta.vaults.create({ display_name: 'changing vault' });
    const auth = {
      type: 'static_bearer' as const,
      mcp_server_url: 'https://mcp.example.com/sse',
      token: 'tok',
    };
    const kept = await client.beta.vaults.credentials.create(vault.id, { auth });
    const dropped = await client.beta.vaults.credentials.create(vault.id, {
      auth: { ...auth, mcp_server_url: 'https://mcp2.example.com/sse' },
    });
    await client.beta.vaults.credentials.archive(kept.id, { vault_id: vault.id });
    await client.beta.vaults.credentials.delete(dropped.id, { vault_id: vault.id });

    const expected = deploymentEvents.length + credentialEvents.length + 1;
    const deliveries = await pollUntil(`${expected} change deliveries`, () => {
      const got = receiver.at('/changes');
      return got.length >= expected ? got : undefined;
    });
    const events = deliveries.map((d) => unwrap(d, endpoint.signing_secret).data);
    const about = (id: string) =>
      events
        .filter((e) => e.id === id)
        .map((e) => e.type)
        .sort();
    expect(about(deployment.id)).toEqual([...deploymentEvents].sort());
    expect(about(kept.id)).toEqual(['vault_credential.archived', 'vault_credential.created']);
    expect(about(dropped.id)).toEqual(['vault_credential.created', 'vault_credential.deleted']);
    for (const event of events.filter((e) => e.type.startsWith('vault_credential.')))
      expect(event).toMatchObject({ vault_id: vault.id });
  });

  it('serves the same endpoints and delivery log on /api, in camelCase', async () => {
    const created = await call<ApiEndpoint>('POST', '/api/webhooks', {
      url: receiver.url('/api-surface'),
      enabled_events: ['memory_store.created'],
      name: 'api surface',
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ enabledEvents: ['memory_store.created'], state: 'enabled' });
    expect(created.body.signingSecret).toMatch(/^whsec_/);
    const listed = await call<ApiEndpoint[]>('GET', '/api/webhooks?limit=100');
    expect(listed.body.map((e) => e.id)).toContain(created.body.id);
    expect((await call<Endpoint>('GET', `/v1/webhooks/${created.body.id}`)).body.name).toBe('api surface');

    const store = await client.beta.memoryStores.create({ name: 'hooked store' });
    const delivered = await pollUntil(
      'the /api endpoint gets its event',
      () => receiver.at('/api-surface')[0],
    );
    expect(unwrap(delivered, created.body.signingSecret).data).toMatchObject({
      type: 'memory_store.created',
      id: store.id,
    });
    const log = await call<unknown[]>('GET', `/api/webhooks/${created.body.id}/deliveries`);
    expect(log.body[0]).toMatchObject({
      eventType: 'memory_store.created',
      eventId: delivered.headers['webhook-id'],
    });
    expect((await call('DELETE', `/api/webhooks/${created.body.id}`)).status).toBe(204);
    expect((await call('GET', `/v1/webhooks/${created.body.id}`)).status).toBe(404);
  });

  it('refuses bad endpoint input with a typed 4xx and changes nothing', async () => {
    const endpointCount = async () =>
      (await call<Page<Endpoint>>('GET', '/v1/webhooks?limit=100')).body.data.length;
    const before = await endpointCount();
    const cases: Array<[unknown, number, RegExp]> = [
      [{ enabled_events: ['agent.created'] }, 400, /url/],
      [{ url: receiver.url('/x'), enabled_events: [] }, 400, /at least one/],
      [{ url: receiver.url('/x'), enabled_events: ['session.status_idle'] }, 400, /webhook event types/],
      [{ url: 'ftp://example.com/hook', enabled_events: ['agent.created'] }, 400, /http or https/],
      [{ url: 'not a url', enabled_events: ['agent.created'] }, 400, /absolute URL/],
      [{ url: receiver.url('/x'), enabled_events: ['agent.created'], colour: 'red' }, 400, /colour/],
      // Loopback beyond the one receiver the configuration names is refused.
      [
        { url: 'http://127.0.0.1:1/hook', enabled_events: ['agent.created'] },
        400,
        /^url: .*a loopback address/,
      ],
      [
        { url: receiver.url('/x').replace('127.0.0.1', 'localhost'), enabled_events: ['agent.created'] },
        400,
        /loopback/,
      ],
      [{ url: 'http://[::1]/hook', enabled_events: ['agent.created'] }, 400, /loopback/],
      [
        { url: receiver.url('/x'), enabled_events: ['agent.created'], session_id: 'sesn_missing' },
        404,
        /sesn_missing/,
      ],
    ];
    for (const [body, status, message] of cases) {
      const reply = await call<ErrorEnvelope>('POST', '/v1/webhooks', body);
      expect(reply.status, JSON.stringify(body)).toBe(status);
      expect(reply.body.type).toBe('error');
      expect(reply.body.error.message).toMatch(message);
    }
    expect((await call('GET', '/v1/webhooks/wh_missing')).status).toBe(404);
    expect((await call('GET', '/v1/webhooks/wh_missing/deliveries')).status).toBe(404);
    const endpoint = await createEndpoint('/unchanged', ['agent.created']);
    const badUpdate = await call('POST', `/v1/webhooks/${endpoint.id}`, { state: 'paused' });
    expect(badUpdate.status).toBe(400);
    expect((await call<Endpoint>('GET', `/v1/webhooks/${endpoint.id}`)).body.state).toBe('enabled');
    expect(await endpointCount()).toBe(before + 1);
  });
});
