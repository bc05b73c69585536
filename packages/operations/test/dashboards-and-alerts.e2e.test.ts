import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  FakeOtlpReceiver,
  launchPlatform,
  pollUntil,
  repoRoot,
  SERVICES,
  type ReceivedSpan,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import {
  alertRules,
  ALERT_RULES_FILE,
  dashboardQueries,
  expandGrafanaVariables,
  measurementOf,
} from '../src/infra-queries.js';
import { PrometheusServer, prometheusBinary, type PromResult } from '../src/prometheus-server.js';
import { runScriptedLoad } from '../src/scripted-load.js';

const root = repoRoot();

function values(result: PromResult): number[] {
  const rows = (result.data?.result ?? []) as Array<{ value?: [number, string] }>;
  return rows.map((r) => Number(r.value?.[1]));
}

describe('telemetry of the running platform: Prometheus, dashboards, alerts, OTLP traces and metrics', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let prometheus: PrometheusServer;
  let otlp: FakeOtlpReceiver;

  beforeAll(async () => {
    db = await createTestDatabase();
    otlp = await FakeOtlpReceiver.start();
    platform = await launchPlatform({
      databaseUrl: db.url,
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
        OTEL_BSP_SCHEDULE_DELAY: '200',
        OTEL_METRIC_EXPORT_INTERVAL: '1000',
      },
    });
    const targets = SERVICES.map((name) => ({
      job: `agentry-${name}`,
      address: new URL(platform.service(name).url).host,
    }));
    prometheus = await PrometheusServer.start(targets, [join(root, ...ALERT_RULES_FILE)]);
    // Waves of load: the first creates every series, later ones move them, so rates over them are not 0.
    // Each wave lies between two scrapes of every service, so Prometheus sees it move the series; more
    // come (up to 4) while a query still has no data.
    await runScriptedLoad(platform.gatewayUrl, 2);
    for (let wave = 0; wave < 4; wave += 1) {
      await scrapedSince(Date.now());
      await runScriptedLoad(platform.gatewayUrl, 3);
      await scrapedSince(Date.now());
      if ((await queriesWithoutData()).length === 0) break;
    }
  });

  /** Resolves once Prometheus has scraped every service after `sinceMs`. */
  async function scrapedSince(sinceMs: number): Promise<void> {
    await pollUntil(
      'a scrape of every service',
      async () => {
        const scrapedAt = values(await prometheus.query('timestamp(up{job=~"agentry-.*"})'));
        return scrapedAt.length === SERVICES.length && Math.min(...scrapedAt) * 1000 > sinceMs;
      },
      30_000,
      { everyMs: 200 },
    );
  }

  /** Every panel query and alert measurement that returns no finite value now. */
  async function queriesWithoutData(): Promise<string[]> {
    const exprs = [
      ...dashboardQueries(root).map((q) => ({
        name: `${q.dashboard} / ${q.panel}`,
        expr: expandGrafanaVariables(q.expr),
      })),
      ...alertRules(root).map((r) => ({ name: r.alert, expr: measurementOf(r.expr) })),
    ];
    const empty: string[] = [];
    for (const { name, expr } of exprs) {
      if (!values(await prometheus.query(expr)).some((v) => Number.isFinite(v)))
        empty.push(`${name}: ${expr}`);
    }
    return empty;
  }

  afterAll(async () => {
    await prometheus?.stop();
    await platform?.stop();
    await otlp?.stop();
    await db?.drop();
  });

  it('promtool accepts the alert rules', () => {
    const run = spawnSync(prometheusBinary('promtool'), ['check', 'rules', join(root, ...ALERT_RULES_FILE)], {
      encoding: 'utf8',
    });
    expect(run.stdout + run.stderr).toContain('SUCCESS');
    expect(run.status).toBe(0);
  });

  it('scrapes all five services', async () => {
    const up = await prometheus.query('up');
    expect(values(up)).toEqual([1, 1, 1, 1, 1]);
    // The check below is not vacuous: a series nobody records has no data.
    expect(values(await prometheus.query('agentry_no_such_metric_total'))).toEqual([]);
  });

  it('every dashboard panel query returns data', async () => {
    const queries = dashboardQueries(root);
    expect(queries.length).toBeGreaterThanOrEqual(20);
    const empty: string[] = [];
    for (const query of queries) {
      const result = await prometheus.query(expandGrafanaVariables(query.expr));
      expect(result.status, `${query.dashboard} / ${query.panel}: ${result.error}`).toBe('success');
      if (!values(result).some((v) => Number.isFinite(v)))
        empty.push(`${query.dashboard} / ${query.panel}: ${query.expr}`);
    }
    expect(empty).toEqual([]);
  });

  it('every alert expression evaluates, and what it measures returns data', async () => {
    const rules = alertRules(root);
    expect(rules.length).toBeGreaterThanOrEqual(8);
    const empty: string[] = [];
    for (const rule of rules) {
      const full = await prometheus.query(rule.expr);
      expect(full.status, `${rule.alert}: ${full.error}`).toBe('success');
      const measured = await prometheus.query(measurementOf(rule.expr));
      if (!values(measured).some((v) => Number.isFinite(v)))
        empty.push(`${rule.alert}: ${measurementOf(rule.expr)}`);
    }
    expect(empty).toEqual([]);
    const loaded = await prometheus.api<{
      groups: Array<{ rules: Array<{ name: string; health: string; lastError?: string }> }>;
    }>('/api/v1/rules');
    const health = loaded.groups
      .flatMap((g) => g.rules)
      .map((r) => `${r.name}:${r.health}${r.lastError ?? ''}`);
    expect(health.sort()).toEqual(rules.map((r) => `${r.alert}:ok`).sort());
  });

  it('labels carry no session, tenant or request ids', async () => {
    const names = await prometheus.api<string[]>('/api/v1/labels');
    const series = await prometheus.api<Array<Record<string, string>>>(
      '/api/v1/series?match[]={service_name=~"agentry-.*"}',
    );
    expect(series.length).toBeGreaterThan(50);
    const leaked = series
      .flatMap((s) => Object.values(s))
      .filter((v) => /\b(sesn|sevt|user|tenant|req|agent|env)_[0-9A-Za-z]{6,}/.test(v));
    expect(leaked).toEqual([]);
    expect(names).not.toEqual(expect.arrayContaining(['session_id']));
  });

  it('one turn is one trace: gateway → dataplane turn → model call with GenAI attributes → worker tool span', async () => {
    const workerTool = (s: ReceivedSpan) => s.service === 'agentry-worker' && s.name === 'execute_tool write';
    await pollUntil('the worker tool span', () => otlp.spans.some(workerTool), 20_000).catch(() => undefined);
    const tool = otlp.spans.find(workerTool)!;
    expect(tool.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'write',
      'agentry.environment.type': 'local',
    });
    const trace = otlp.trace(tool.traceId);
    const byId = new Map(trace.map((s) => [s.spanId, s]));
    const ancestors: ReceivedSpan[] = [];
    for (let at = byId.get(tool.parentSpanId); at; at = byId.get(at.parentSpanId)) ancestors.push(at);
    // A session's calls go to the subject of the worker it is bound to, `hands.exec.worker.<id>`.
    const path = ancestors.map(
      (s) => `${s.service}:${s.name.replace(/^hands\.exec\.worker\..+$/, 'hands.exec.worker')}`,
    );
    expect(path).toEqual(
      expect.arrayContaining([
        'agentry-worker:hands.exec.worker',
        'agentry-dataplane:execute_tool write',
        'agentry-dataplane:invoke_agent',
      ]),
    );
    expect(ancestors.at(-1)!.service).toBe('agentry-gateway');
    const turn = ancestors.find((s) => s.name === 'invoke_agent')!;
    const model = trace.find((s) => s.name === 'chat scripted' && s.parentSpanId === turn.spanId);
    expect(model?.kind).toBe(3);
    expect(model?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'scripted',
      'gen_ai.provider.name': 'scripted',
    });
    expect(Number(model?.attributes['gen_ai.usage.output_tokens'])).toBeGreaterThan(0);
    // No prompt or completion content on the model span.
    expect(Object.keys(model!.attributes).filter((k) => /prompt|completion|content|message/.test(k))).toEqual(
      [],
    );
  });

  it('pushes metrics over OTLP from every service', async () => {
    const has = (service: string, name: string) => otlp.metricNames.get(service)?.has(name) ?? false;
    await pollUntil(
      'request metrics of every service',
      () => SERVICES.every((s) => has(`agentry-${s}`, 'http.server.request.duration')),
      15_000,
    ).catch(() => undefined);
    for (const service of SERVICES)
      expect(has(`agentry-${service}`, 'http.server.request.duration'), service).toBe(true);
    expect(has('agentry-dataplane', 'gen_ai.client.token.usage')).toBe(true);
  });

  it('the helm test script runs a turn against the platform', () => {
    const run = spawnSync(process.execPath, [join(root, 'helm', 'agentry', 'files', 'smoke-turn.mjs')], {
      encoding: 'utf8',
      env: { ...process.env, AGENTRY_URL: platform.gatewayUrl, AGENTRY_ADMIN_PASSWORD: 'admin' },
      timeout: 60_000,
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('turn ok');
    expect(run.status).toBe(0);
  });
});
