import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import { AppModule } from '../app.module.js';
import { GatewayEnvSchema } from '../config/env.js';
import { controllersOf } from '../docs/module-controllers.js';
import { routesOf } from '../docs/route-metadata.js';
import { acceptsUsers, acceptsWorkerCredential } from './worker-route.decorator.js';

/** Every route the gateway serves, as its decorators declare it. */
function gatewayRoutes() {
  const config = GatewayEnvSchema.parse({
    PORT: '0',
    AGENTRY_JWT_SECRET: 'x'.repeat(32),
    AGENTRY_LOG_LEVEL: 'silent',
  });
  return routesOf(controllersOf(AppModule.forRoot(config))).filter((r) => !r.isPublic);
}

const label = (r: { method: string; path: string }) => `${r.method.toUpperCase()} ${r.path}`;

describe('which routes take worker credentials', () => {
  const routes = gatewayRoutes();

  it("takes environment keys on the environments' worker routes only", () => {
    const taking = routes
      .filter((r) => acceptsWorkerCredential(r.workerPolicy, 'environment-key'))
      .map(label);
    expect(taking.sort()).toEqual(
      [
        'GET /v1/environments/{id}/work',
        'GET /v1/environments/{id}/work/poll',
        'GET /v1/environments/{id}/work/stats',
        'GET /v1/environments/{id}/work/{workId}',
        'POST /v1/environments/{id}/work/{workId}',
        'POST /v1/environments/{id}/work/{workId}/ack',
        'POST /v1/environments/{id}/work/{workId}/heartbeat',
        'POST /v1/environments/{id}/work/{workId}/stop',
        'GET /api/environments/{id}/work',
        'GET /api/environments/{id}/work/poll',
        'GET /api/environments/{id}/work/stats',
        'GET /api/environments/{id}/work/{workId}',
        'POST /api/environments/{id}/work/{workId}',
        'POST /api/environments/{id}/work/{workId}/ack',
        'POST /api/environments/{id}/work/{workId}/heartbeat',
        'POST /api/environments/{id}/work/{workId}/stop',
        'GET /api/environments/{id}/sessions/{sessionId}/pending-tools',
        'GET /api/environments/{id}/sessions/{sessionId}/skills',
        'POST /api/environments/{id}/sessions/{sessionId}/tool-results',
      ].sort(),
    );
  });

  it('takes sessions tokens on the routes the SDK worker uses for its item only', () => {
    const taking = routes.filter((r) => acceptsWorkerCredential(r.workerPolicy, 'sessions-token')).map(label);
    expect(taking.sort()).toEqual(
      [
        'GET /v1/sessions/{id}',
        'GET /v1/sessions/{id}/events',
        'POST /v1/sessions/{id}/events',
        'GET /v1/sessions/{id}/events/stream',
        'POST /v1/environments/{id}/work/{workId}/heartbeat',
        'POST /v1/environments/{id}/work/{workId}/stop',
        'GET /v1/skills/{id}/versions/{version}',
        'GET /v1/skills/{id}/versions/{version}/content',
      ].sort(),
    );
  });

  it('keeps users and API keys off the worker-only routes, and on every other one', () => {
    const refusing = routes.filter((r) => !acceptsUsers(r.workerPolicy)).map(label);
    expect(refusing.every((r) => /\/environments\/\{id\}\/(work|sessions)/.test(r))).toBe(true);
    expect(refusing).not.toContain('GET /v1/environments/{id}/work');
    expect(refusing).not.toContain('GET /api/environments/{id}/work/stats');
    expect(refusing).toContain('GET /v1/environments/{id}/work/poll');
    expect(refusing).toContain('POST /api/environments/{id}/sessions/{sessionId}/tool-results');
    expect(
      routes
        .filter((r) => r.path.startsWith('/v1/agents'))
        .every((r) => acceptsUsers(r.workerPolicy) && r.workerPolicy === null),
    ).toBe(true);
  });
});
