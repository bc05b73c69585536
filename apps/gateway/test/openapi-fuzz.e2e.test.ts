import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  repoRoot,
  UNLIMITED_PRINCIPALS,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import { databaseSnapshot } from './db-snapshot.js';
import { casesFor, isDestructive, sampleCases, type DocumentOperation } from './fuzz-cases.js';
import { runFuzz, sendCase } from './fuzz-runner.js';
import { resolver, type OpenApiDocument, type Schema } from './fuzz-schema.js';
import { classify, loadOperations } from './route-catalog.js';
import { createNamespaceFixtures } from './route-fixtures.js';
import type { Fixtures } from './route-params.js';

/**
 * Schema-aware fuzzing of every operation of both surfaces. `FUZZ_CASES` picks how many cases run: a
 * number (default 1200, a seeded sample that probes every route) or `all`. `FUZZ_SEED` changes the sample.
 */
const CASES = process.env.FUZZ_CASES === 'all' ? Infinity : Number(process.env.FUZZ_CASES ?? 1200);
const SEED = Number(process.env.FUZZ_SEED ?? 20261202);
/** Small, so the over-the-limit body of every write is cheap to send. */
const BODY_LIMIT_BYTES = 256 * 1024;
/**
 * Tables left out of the before/after comparison, since they move on their own: worker heartbeats, and
 * the self-hosted environment's work queue, whose unclaimed items the scheduler re-offers on a timer, and
 * the fixture webhook's delivery log, which the scheduler's retries add to (nothing answers its address).
 */
const MOVING_TABLES = ['workers', 'work_items', 'webhook_deliveries', 'webhook_delivery_attempts'];
/** Cases that once found a 5xx, sent in every run whatever the sample. */
const PINNED: Array<[string, string]> = [
  ['GET /v1/vaults/{id}', 'path {id}: NUL id'],
  ['POST /v1/sessions/{id}/events', 'path {id}: NUL id'],
  ['GET /api/sessions/{id}/events', 'path {id}: NUL id'],
  ['GET /api/multiagent/runs/{id}/stream', 'path {id}: SQL-ish id'],
  ['GET /v1/skills/{id}/versions/{version}', 'path {version}: huge number id'],
  ['PUT /api/memory-stores/{id}/memories/{path}', 'body content: very long'],
  ['POST /api/memory-stores/{id}/redact', 'body replacement: very long'],
];

describe('OpenAPI fuzz: hostile input to every route never yields a 5xx, answers with its surface’s envelope, and changes nothing when refused', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let admin: ApiClient;
  let document: OpenApiDocument;
  let ids: Fixtures;
  let environmentKey = '';
  /** Sign-out revokes the token it is sent with, so it gets one of its own. */
  let signOutToken: Record<string, string> = {};

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({
      databaseUrl: db.url,
      readyTimeoutMs: 400_000,
      env: { ...UNLIMITED_PRINCIPALS, AGENTRY_BODY_LIMIT_BYTES: String(BODY_LIMIT_BYTES) },
    });
    const anonymous = new ApiClient(platform.gatewayUrl);
    admin = await anonymous.login('admin', 'admin');
    const documented = new Set(loadOperations().map((op) => op.label));
    const member = await admin.post<{ id: string }>('/api/admin/users', {
      username: 'fuzz-member',
      password: 'member-pass-1',
      role: 'member',
    });
    const [fixtures, key, namespaces] = await Promise.all([
      createNamespaceFixtures(admin, {}, documented),
      admin.post<{ id: string }>('/api/keys', { name: 'fuzz-key', permissions: ['read'] }),
      admin.get<Array<{ id: string }>>('/api/namespaces'),
    ]);
    const tenant = (await db.prisma.tenant.findFirstOrThrow()).id;
    ids = {
      ...fixtures.ids,
      user: member.body.id,
      apiKey: key.body.id,
      namespace: namespaces.body[0]!.id,
      tenant,
    };
    environmentKey = fixtures.environmentKeySecret;
    signOutToken = (await anonymous.login('admin', 'admin')).authHeaders;
  }, 600_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  it('serves the committed document at /docs/openapi.json', async () => {
    const json = await fetch(`${platform.gatewayUrl}/docs/openapi.json`);
    expect(json.status).toBe(200);
    document = (await json.json()) as OpenApiDocument;
    expect(document.openapi).toBe('3.1.0');
    expect(document).toEqual(JSON.parse(readFileSync(join(repoRoot(), 'docs', 'openapi.json'), 'utf8')));
    const page = await fetch(`${platform.gatewayUrl}/docs`);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('/api/environments/{id}/rotate-key');
    // The interactive reference runs on scripts this gateway serves; nothing is loaded from elsewhere.
    const scripts = [...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script).toMatch(/^\/docs\/assets\//);
    expect(html).not.toMatch(/https?:\/\/(?!json-schema)/);
  });

  it('answers every mutation of every route’s path, query, headers and body with a 2xx or its surface’s typed 4xx', async () => {
    const resolve = resolver(document);
    const operations: DocumentOperation[] = loadOperations().map((op) => ({
      ...op,
      schema: document.paths[op.path]![op.method.toLowerCase()] as Schema,
    }));
    const byOperation = operations.map((op) => casesFor(op, ids, resolve, BODY_LIMIT_BYTES));
    const total = byOperation.reduce((sum, cases) => sum + cases.length, 0);
    const sample = sampleCases(byOperation, CASES, SEED);
    const pinned = byOperation
      .flat()
      .filter(
        (c) => !sample.includes(c) && PINNED.some(([op, label]) => c.op.label === op && c.label === label),
      );
    const cases = [...sample, ...pinned].sort(
      (a, b) => Number(isDestructive(a.op)) - Number(isDestructive(b.op)),
    );
    const credentials = (label: string): Record<string, string> => {
      if (label === 'POST /api/auth/logout') return signOutToken;
      if (classify({ label }) === 'worker')
        return { authorization: `Bearer ${environmentKey}`, 'x-builder-environment-key': environmentKey };
      return admin.authHeaders;
    };
    const started = Date.now();
    const report = await runFuzz(
      cases,
      (fuzz) => sendCase(platform.gatewayUrl, fuzz, credentials(fuzz.op.label)),
      databaseSnapshot(db, MOVING_TABLES),
    );
    const routes = new Set(cases.map((c) => c.op.label)).size;
    console.log(
      `openapi fuzz: ${report.sent} cases of ${total} generated over ${routes}/${operations.length} routes in ${Math.round((Date.now() - started) / 1000)} s; ` +
        `statuses ${JSON.stringify(report.statuses)}; database compared around ${report.refusedChecked} refused cases`,
    );
    expect(report.failures, report.failures.join('\n')).toEqual([]);
    expect(routes).toBe(operations.length);
    expect(report.sent).toBe(cases.length);
    expect(
      pinned.length +
        sample.filter((c) => PINNED.some(([op, label]) => c.op.label === op && c.label === label)).length,
    ).toBe(PINNED.length);
    // Most hostile input is refused, and most refusals had the database compared around them.
    const refused = Object.entries(report.statuses).reduce(
      (sum, [status, n]) => sum + (Number(status) >= 400 ? n : 0),
      0,
    );
    expect(refused).toBeGreaterThan(report.sent / 2);
    expect(report.refusedChecked).toBeGreaterThan(refused / 2);
  }, 1_800_000);
});
