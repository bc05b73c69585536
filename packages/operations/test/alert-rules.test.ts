import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '@agentry/testing';
import { prometheusBinary } from '../src/prometheus-server.js';
import { alertRules, measurementOf } from '../src/infra-queries.js';

const dir = join(repoRoot(), 'infra', 'prometheus');
const promtool = (...args: string[]) =>
  spawnSync(prometheusBinary('promtool'), args, { encoding: 'utf8', cwd: dir });

describe('infra/prometheus alert rules (promtool of the Debian prometheus package)', () => {
  it('pass promtool check rules', () => {
    const run = promtool('check', 'rules', 'alerts.yml');
    expect(run.stdout + run.stderr).toMatch(/SUCCESS: \d+ rules found/);
    expect(run.status).toBe(0);
  });

  it('fire on the series that should fire them, with their labels and annotations, and stay quiet when healthy', () => {
    const run = promtool('test', 'rules', 'alerts.test.yml');
    expect(run.stdout + run.stderr).toContain('SUCCESS');
    expect(run.status).toBe(0);
  });

  it('every rule has a severity, a summary, and the "<measurement> <op> <threshold>" shape the platform test evaluates', () => {
    const rules = alertRules(repoRoot()) as Array<{
      alert: string;
      expr: string;
      labels?: { severity?: string };
      annotations?: { summary?: string };
    }>;
    for (const rule of rules) {
      expect(['critical', 'warning', 'info'], rule.alert).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary, rule.alert).toBeTruthy();
      expect(() => measurementOf(rule.expr), rule.alert).not.toThrow();
    }
  });
});
