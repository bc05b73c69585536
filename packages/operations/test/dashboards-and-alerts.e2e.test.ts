import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, launchPlatform, repoRoot, SERVICES, type RunningPlatform, type TestDatabase } from '@agentry/testing';
import { alertRules, ALERT_RULES_FILE, dashboardQueries, expandGrafanaVariables, measurementOf } from '../src/infra-queries.js';
import { PrometheusServer, prometheusBinary, type PromResult } from '../src/prometheus-server.js';
import { runScriptedLoad } from '../src/scripted-load.js';

const root = repoRoot();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function values(result: PromResult): number[] {
  const rows = (result.data?.result ?? []) as Array<{ value?: [number, string] }>;
  return rows.map((r) => Number(r.value?.[1]));
}

describe('infra/: every dashboard query and alert expression against a real Prometheus scraping the platform', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let prometheus: PrometheusServer;

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({ databaseUrl: db.url });
    const targets = SERVICES.map((name) => ({ job: `agentry-${name}`, address: new URL(platform.service(name).url).host }));
    prometheus = await PrometheusServer.start(targets, [join(root, ...ALERT_RULES_FILE)]);
    // Two waves: the first creates every series, the second moves them, so rates over them are not 0.
    await runScriptedLoad(platform.gatewayUrl, 2);
    await sleep(2_500);
    await runScriptedLoad(platform.gatewayUrl, 3);
    await sleep(4_000);
  });

  afterAll(async () => {
    await prometheus?.stop();
    await platform?.stop();
    await db?.drop();
  });

  it('promtool accepts the alert rules', () => {
    const run = spawnSync(prometheusBinary('promtool'), ['check', 'rules', join(root, ...ALERT_RULES_FILE)], { encoding: 'utf8' });
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
      if (!values(result).some((v) => Number.isFinite(v))) empty.push(`${query.dashboard} / ${query.panel}: ${query.expr}`);
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
      if (!values(measured).some((v) => Number.isFinite(v))) empty.push(`${rule.alert}: ${measurementOf(rule.expr)}`);
    }
    expect(empty).toEqual([]);
    const loaded = await prometheus.api<{ groups: Array<{ rules: Array<{ name: string; health: string; lastError?: string }> }> }>('/api/v1/rules');
    const health = loaded.groups.flatMap((g) => g.rules).map((r) => `${r.name}:${r.health}${r.lastError ?? ''}`);
    expect(health.sort()).toEqual(rules.map((r) => `${r.alert}:ok`).sort());
  });

  it('labels carry no session, tenant or request ids', async () => {
    const names = await prometheus.api<string[]>('/api/v1/labels');
    const series = await prometheus.api<Array<Record<string, string>>>('/api/v1/series?match[]={service_name=~"agentry-.*"}');
    expect(series.length).toBeGreaterThan(50);
    const leaked = series.flatMap((s) => Object.values(s)).filter((v) => /\b(sesn|sevt|user|tenant|req|agent|env)_[0-9A-Za-z]{6,}/.test(v));
    expect(leaked).toEqual([]);
    expect(names).not.toEqual(expect.arrayContaining(['session_id']));
  });
});
