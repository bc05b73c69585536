import Fastify from 'fastify';
import { PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordHttpMetrics } from './http-metrics.js';
import { platformMetrics, resetPlatformMetrics, toolLabel } from './instruments.js';
import { observeGauge } from './observe.js';
import { prometheusReader, startMetrics, stopMetrics } from './start-metrics.js';

async function scrape(): Promise<string> {
  const { resourceMetrics } = await prometheusReader()!.collect();
  return new PrometheusSerializer().serialize(resourceMetrics);
}

describe('platform metrics', () => {
  beforeAll(() => {
    startMetrics('agentry-test', {});
    resetPlatformMetrics();
  });
  afterAll(async () => {
    await stopMetrics();
    resetPlatformMetrics();
  });

  it('records HTTP requests by route template, never by the raw URL', async () => {
    const app = Fastify();
    recordHttpMetrics(app);
    app.get('/v1/sessions/:id', () => ({ ok: true }));
    await app.inject({ method: 'GET', url: '/v1/sessions/sesn_secret1' });
    await app.inject({ method: 'GET', url: '/v1/sessions/sesn_secret2' });
    await app.inject({ method: 'GET', url: '/nowhere/sesn_secret3' });
    await app.close();
    const text = await scrape();
    expect(text).toMatch(
      /http_server_request_duration_count\{[^}]*http_route="\/v1\/sessions\/:id"[^}]*http_response_status_code="200"[^}]*\} 2/,
    );
    expect(text).toMatch(/http_server_request_duration_count\{[^}]*http_route="unmatched"[^}]*\} 1/);
    expect(text).not.toContain('sesn_secret');
  });

  it('exposes observed gauges and tolerates a failing reader', async () => {
    observeGauge('agentry.test.depth', 'test', () => [{ value: 7, attributes: { queue: 'q' } }]);
    observeGauge('agentry.test.broken', 'test', () => Promise.reject(new Error('store down')));
    platformMetrics().leaseTakeovers.add(1);
    const text = await scrape();
    expect(text).toMatch(/agentry_test_depth\{queue="q"[^}]*\} 7/);
    expect(text).toMatch(/agentry_lease_takeovers_total(\{[^}]*\})? 1/);
  });

  it('folds tool names into a bounded set of labels', () => {
    expect(toolLabel('write_file')).toBe('write_file');
    expect(toolLabel('mcp__github__create_issue')).toBe('mcp__github');
    expect(toolLabel('a name with spaces')).toBe('other');
    expect(toolLabel('x'.repeat(65))).toBe('other');
  });
});
