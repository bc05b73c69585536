import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '@agentry/testing';
import schema from '../src/grafana-dashboard.schema.json' with { type: 'json' };
import { dashboardFiles } from '../src/infra-queries.js';

interface Panel {
  id: number;
  gridPos: { h: number; w: number; x: number; y: number };
  targets: Array<{ refId: string; datasource: { uid: string } }>;
}

const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
const files = dashboardFiles(repoRoot());

describe('infra/grafana dashboards', () => {
  it('has the overview, turns and models, Hands and API edge dashboards with distinct uids', () => {
    const uids = files.map((f) => (JSON.parse(readFileSync(f, 'utf8')) as { uid: string }).uid);
    expect(uids.sort()).toEqual([
      'agentry-api-edge',
      'agentry-hands',
      'agentry-overview',
      'agentry-turns-models',
    ]);
  });

  it.each(files)(
    '%s is a valid dashboard model whose panels use the data source variable and do not overlap',
    (file) => {
      const dashboard = JSON.parse(readFileSync(file, 'utf8')) as {
        panels: Panel[];
        templating: { list: Array<{ name: string }> };
      };
      expect(validate(dashboard), JSON.stringify(validate.errors)).toBe(true);
      expect(dashboard.templating.list.map((v) => v.name)).toContain('datasource');
      const ids = dashboard.panels.map((p) => p.id);
      expect(new Set(ids).size).toBe(ids.length);
      const cells = new Set<string>();
      for (const panel of dashboard.panels) {
        const { h, w, x, y } = panel.gridPos;
        expect(x + w, `panel ${panel.id} overflows the 24-column grid`).toBeLessThanOrEqual(24);
        for (let row = y; row < y + h; row += 1) {
          for (let col = x; col < x + w; col += 1) {
            expect(cells.has(`${row}:${col}`), `panel ${panel.id} overlaps another`).toBe(false);
            cells.add(`${row}:${col}`);
          }
        }
        for (const target of panel.targets) expect(target.datasource.uid).toBe('${datasource}');
      }
    },
  );

  it('the schema check is not vacuous', () => {
    expect(
      validate({
        uid: 'x',
        title: 'x',
        schemaVersion: 39,
        time: { from: 'now-1h', to: 'now' },
        templating: { list: [] },
        panels: [{ id: 1 }],
      }),
    ).toBe(false);
  });
});
