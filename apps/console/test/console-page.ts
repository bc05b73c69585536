import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { repoRoot } from '@agentry/testing';

const ARTEFACTS = join(repoRoot(), 'test-results', 'console');
// Only this run's screenshots, numbered in the order taken.
rmSync(ARTEFACTS, { recursive: true, force: true });
mkdirSync(ARTEFACTS, { recursive: true });

let step = 0;

/** A screenshot of the step, numbered in the order taken, kept as a test artefact. */
export async function snap(page: Page, name: string): Promise<void> {
  step += 1;
  await page.screenshot({
    path: join(ARTEFACTS, `${String(step).padStart(2, '0')}-${name}.png`),
    fullPage: true,
  });
}

/** axe-core on the page as it is now: no serious or critical violation. */
export async function expectAccessible(page: Page, where: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
    );
  expect(serious, `accessibility violations on ${where}`).toEqual([]);
}

/** Picks an option of a Mantine select by its label. */
export async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}
