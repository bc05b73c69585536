import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

export interface DashboardQuery {
  dashboard: string;
  panel: string;
  expr: string;
}

export interface AlertRule {
  alert: string;
  expr: string;
}

interface Dashboard {
  title: string;
  panels: Array<{ title: string; targets?: Array<{ expr?: string }> }>;
}

/** Grafana's interval variables, as a 1 s scrape in a test makes them. */
export function expandGrafanaVariables(expr: string): string {
  return expr
    .replaceAll('$__rate_interval', '1m')
    .replaceAll('$__interval', '15s')
    .replaceAll('$__range', '5m');
}

export function dashboardFiles(root: string): string[] {
  const dir = join(root, 'infra', 'grafana');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => join(dir, f));
}

export function dashboardQueries(root: string): DashboardQuery[] {
  return dashboardFiles(root).flatMap((file) => {
    const dashboard = JSON.parse(readFileSync(file, 'utf8')) as Dashboard;
    return dashboard.panels.flatMap((panel) =>
      (panel.targets ?? []).map((t) => ({
        dashboard: dashboard.title,
        panel: panel.title,
        expr: t.expr ?? '',
      })),
    );
  });
}

export const ALERT_RULES_FILE = ['infra', 'prometheus', 'alerts.yml'] as const;

export function alertRules(root: string): AlertRule[] {
  const doc = parse(readFileSync(join(root, ...ALERT_RULES_FILE), 'utf8')) as {
    groups: Array<{ rules: AlertRule[] }>;
  };
  return doc.groups.flatMap((g) => g.rules);
}

/** The measurement of `<measurement> <op> <number>`: what must return data for the rule to be able to fire. */
export function measurementOf(expr: string): string {
  const match = /^([\s\S]+?)\s*(?:>|<|>=|<=|==|!=)\s*-?[\d.]+\s*$/.exec(expr.trim());
  if (!match?.[1]) throw new Error(`alert expression is not "<measurement> <op> <threshold>": ${expr}`);
  return match[1];
}
