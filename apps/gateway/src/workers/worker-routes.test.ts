import { describe, expect, it } from 'vitest';
import { ROUTE_TABLE } from '../docs/route-table.js';
import { securityOf } from './worker-route-security.js';

/** Every route the gateway serves, with the credentials its table entry documents. */
const routes = ROUTE_TABLE.filter((r) => r.auth !== 'public').map((r) => ({
  ...r,
  schemes: securityOf(r.auth ?? 'user').flatMap((requirement) => Object.keys(requirement)),
}));
type Route = (typeof routes)[number];
const takesEnvironmentKeys = (r: Route) => r.schemes.includes('environmentKey');
const takesSessionsTokens = (r: Route) => r.schemes.includes('sessionsToken');
const takesUsers = (r: Route) => r.schemes.includes('bearer');

const label = (r: { method: string; path: string }) => `${r.method.toUpperCase()} ${r.path}`;

describe('which routes take worker credentials', () => {
  it("takes environment keys on the environments' worker routes only", () => {
    const taking = routes.filter(takesEnvironmentKeys).map(label);
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
    const taking = routes.filter(takesSessionsTokens).map(label);
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
    const refusing = routes.filter((r) => !takesUsers(r)).map(label);
    expect(refusing.every((r) => /\/environments\/\{id\}\/(work|sessions)/.test(r))).toBe(true);
    expect(refusing).not.toContain('GET /v1/environments/{id}/work');
    expect(refusing).not.toContain('GET /api/environments/{id}/work/stats');
    expect(refusing).toContain('GET /v1/environments/{id}/work/poll');
    expect(refusing).toContain('POST /api/environments/{id}/sessions/{sessionId}/tool-results');
    expect(routes.filter((r) => r.path.startsWith('/v1/agents')).every((r) => r.auth === undefined)).toBe(
      true,
    );
  });
});
