import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchChromium,
  launchPlatform,
  repoRoot,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';

const ARTEFACTS = join(repoRoot(), 'test-results', 'docs');

/** The interactive reference at /docs in Chromium: served whole by the gateway, and "try it" works. */
describe('the API reference at /docs', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let browser: Browser;
  let token: string;

  beforeAll(async () => {
    mkdirSync(ARTEFACTS, { recursive: true });
    db = await createTestDatabase();
    platform = await launchPlatform({ databaseUrl: db.url });
    const api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    token = api.authHeaders.authorization!.replace(/^Bearer /, '');
    await api.post('/v1/agents', { name: 'listed in the reference', model: 'scripted' });
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
    await db?.drop();
  });

  it('renders from the gateway alone and answers a "try it" call to GET /v1/agents with a token', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto(`${platform.gatewayUrl}/docs`);
    await page.locator('.swagger-ui .information-container').waitFor();
    await expect(page.locator('.opblock-tag-section').count()).resolves.toBeGreaterThan(20);
    await page.screenshot({ path: join(ARTEFACTS, 'reference.png'), fullPage: false });

    // Authorize with a user token, as a person would in the page.
    await page.getByRole('button', { name: 'Authorize' }).first().click();
    const bearer = page.locator('.auth-container').filter({ hasText: 'bearer' }).first();
    await bearer.locator('input').fill(token);
    await bearer.getByRole('button', { name: 'Apply credentials' }).click();
    await page.locator('button.btn-done').first().click();

    await page.locator('.opblock-tag', { hasText: /^v1\/agents/ }).click();
    const operation = page.locator('.opblock-get').filter({
      has: page.locator('.opblock-summary-path', { hasText: /^\/v1\/agents$/ }),
    });
    await operation.locator('.opblock-summary').first().click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    const answered = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/v1/agents' && r.request().method() === 'GET',
    );
    await operation.getByRole('button', { name: 'Execute' }).click();
    const response = await answered;
    expect(response.status()).toBe(200);
    expect(await response.request().headerValue('authorization')).toBe(`Bearer ${token}`);
    await expect(
      operation.locator('.live-responses-table tbody .response-col_status').first().textContent(),
    ).resolves.toContain('200');
    await expect(operation.locator('.live-responses-table').textContent()).resolves.toContain(
      'listed in the reference',
    );
    await operation.locator('.live-responses-table').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTEFACTS, 'try-it.png'), fullPage: false });

    const outside = requested.filter(
      (url) => !url.startsWith(platform.gatewayUrl) && !/^(data|blob):/.test(url),
    );
    expect(outside).toEqual([]);
    expect(requested.some((url) => url.endsWith('/docs/assets/swagger-ui-bundle.js'))).toBe(true);
    await page.close();
  });
});
