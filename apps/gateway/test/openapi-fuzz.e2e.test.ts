import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CMA_ERROR_TYPES } from '@agentry/contracts';
import { ApiClient, createTestDatabase, launchPlatform, repoRoot, type RunningPlatform, type TestDatabase } from '@agentry/testing';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = Record<string, any>;
interface Operation {
  method: string;
  path: string;
  op: Schema;
}
interface Probe {
  label: string;
  path: string;
  query?: string;
  /** A raw string is sent as-is (invalid JSON, huge bodies). */
  body?: Json | { raw: string };
}

const SEED = 20261130;
const HUGE = 'x'.repeat(300_000);

/** A small deterministic PRNG (mulberry32), so every run sends the same inputs. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomJson(next: () => number, depth = 0): Json {
  const pick = Math.floor(next() * (depth > 3 ? 5 : 7));
  switch (pick) {
    case 0:
      return null;
    case 1:
      return next() < 0.5;
    case 2:
      return [0, -1, 1e308, 3.5, Number.MAX_SAFE_INTEGER + 2][Math.floor(next() * 5)]!;
    case 3:
      return ['', 'é\u0000\ud83d', '../../etc/passwd', '<script>', 'a'.repeat(5000)][Math.floor(next() * 5)]!;
    case 4:
      return String(Math.floor(next() * 1e6));
    case 5:
      return Array.from({ length: Math.floor(next() * 4) }, () => randomJson(next, depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: Math.floor(next() * 4) }, (_, i) => [['type', 'name', 'id', 'events', `k${i}`][Math.floor(next() * 5)]!, randomJson(next, depth + 1)]),
      );
  }
}

function deep(levels: number): Json {
  let value: Json = 'bottom';
  for (let i = 0; i < levels; i++) value = { a: value, type: 'x' };
  return value;
}

/** A value of a different JSON type than the schema asks for. */
function wrongTypeFor(schema: Schema): Json {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return 12345;
    case 'number':
    case 'integer':
      return 'not-a-number';
    case 'boolean':
      return 'yes';
    case 'array':
      return { not: 'an array' };
    case 'object':
      return ['not', 'an', 'object'];
    default:
      return { unexpected: [true] };
  }
}

/** Fuzz inputs for one operation: wrong types, missing fields, huge strings, deep nesting, unknown fields, bad JSON. */
function probesFor(operation: Operation, resolve: (s: Schema) => Schema, realIds: Record<string, string>, next: () => number): Probe[] {
  const path = operation.path;
  const withIds = path.replace(/\{(\w+)\}/g, (_, name: string) => realIdFor(path, name, realIds));
  const probes: Probe[] = [
    { label: 'odd path ids', path: path.replace(/\{\w+\}/g, 'nope') },
    { label: 'huge path id', path: path.replace(/\{\w+\}/g, 'i'.repeat(3000)) },
    { label: 'encoded path id', path: path.replace(/\{\w+\}/g, '%2E%2E%2F%00%F0%9F') },
  ];
  const params = ((operation.op.parameters ?? []) as Schema[]).filter((p) => p.in === 'query');
  for (const p of params) {
    probes.push({ label: `query ${p.name} wrong type`, path: withIds, query: `${encodeURIComponent(p.name)}=${encodeURIComponent(JSON.stringify(wrongTypeFor(p.schema ?? {})))}` });
    probes.push({ label: `query ${p.name} huge`, path: withIds, query: `${encodeURIComponent(p.name)}=${'9'.repeat(4000)}` });
    probes.push({ label: `query ${p.name} repeated`, path: withIds, query: `${encodeURIComponent(p.name)}=-1&${encodeURIComponent(p.name)}=zz` });
  }
  if (!path.endsWith('/stream')) probes.push({ label: 'unknown query', path: withIds, query: 'zzz_unknown=1&limit=abc' });
  const schema = operation.op.requestBody?.content?.['application/json']?.schema;
  if (!schema) return probes;
  const body = resolve(schema);
  const properties = (body.properties ?? {}) as Record<string, Schema>;
  const required = (body.required ?? []) as string[];
  probes.push(
    { label: 'invalid JSON', path: withIds, body: { raw: '{"name": "unterminated' } },
    { label: 'empty JSON body', path: withIds, body: { raw: '' } },
    { label: 'null body', path: withIds, body: null },
    { label: 'array body', path: withIds, body: [] },
    { label: 'string body', path: withIds, body: 'just a string' },
    { label: 'missing fields', path: withIds, body: {} },
    { label: 'unknown field', path: withIds, body: { raw: '{"zzz_unknown":1,"__proto__":{"polluted":true}}' } },
    { label: 'deep nesting', path: withIds, body: Object.fromEntries([...required, 'metadata'].map((k) => [k, deep(2000)])) },
  );
  for (const [name, property] of Object.entries(properties)) {
    probes.push({ label: `body ${name} wrong type`, path: withIds, body: { [name]: wrongTypeFor(resolve(property)) } });
    probes.push({ label: `body ${name} huge`, path: withIds, body: { [name]: HUGE } });
  }
  for (let i = 0; i < 4; i++) probes.push({ label: `random JSON #${i}`, path: withIds, body: randomJson(next) });
  return probes;
}


function realIdFor(path: string, name: string, ids: Record<string, string>): string {
  if (name === 'sessionId') return ids.session!;
  if (name !== 'id') return 'nope';
  if (path.includes('/agents/')) return ids.agent!;
  if (path.includes('/environments/')) return ids.environment!;
  if (path.includes('/sessions/')) return ids.session!;
  return 'nope';
}

describe('OpenAPI fuzz: odd input never yields a 5xx, and every 4xx is the typed envelope', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;
  let document: Schema;
  const realIds: Record<string, string> = {};
  let environmentKey = '';

  /** Routes only an environment's worker may call are probed with its key, so their input checks run too. */
  const credentialsFor = (op: Schema): Record<string, string> => {
    const schemes = ((op.security ?? []) as Record<string, unknown>[]).flatMap((requirement) => Object.keys(requirement));
    return schemes.includes('bearer') || !schemes.includes('environmentKey') ? api.authHeaders : { authorization: `Bearer ${environmentKey}` };
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({ databaseUrl: db.url });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    const agent = await api.post('/v1/agents', { name: 'fuzz target', model: 'scripted' });
    const environment = await api.post('/v1/environments', { name: 'fuzz env', config: { type: 'local' } });
    const session = await api.post('/v1/sessions', { agent: agent.body.id, environment_id: environment.body.id });
    Object.assign(realIds, { agent: agent.body.id, environment: environment.body.id, session: session.body.id });
    environmentKey = (await api.post(`/v1/environments/${environment.body.id}/keys`, {})).body.key;
  });

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  it('serves the document and a page listing it at /docs, without credentials', async () => {
    const json = await fetch(`${platform.gatewayUrl}/docs/openapi.json`);
    expect(json.status).toBe(200);
    document = (await json.json()) as Schema;
    expect(document.openapi).toBe('3.1.0');
    // The running server documents the controllers it discovered; the committed copy walks the module tree.
    expect(document).toEqual(JSON.parse(readFileSync(join(repoRoot(), 'docs', 'openapi.json'), 'utf8')));
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/api/agents', '/v1/agents', '/api/sessions/{id}/events']));
    const page = await fetch(`${platform.gatewayUrl}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('/api/environments/{id}/rotate-key');
    expect(html).not.toMatch(/<script|https?:\/\/(?!json-schema)/);
  });

  it('answers every generated bad input with a typed 4xx (or a 2xx), never a 5xx', async () => {
    const next = rng(SEED);
    const resolve = (schema: Schema): Schema => {
      const ref = typeof schema.$ref === 'string' ? /#\/components\/schemas\/(.+)$/.exec(schema.$ref)?.[1] : undefined;
      return ref ? (document.components.schemas[ref] as Schema) : schema;
    };
    const operations: Operation[] = Object.entries(document.paths as Record<string, Record<string, Schema>>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ method, path, op })),
    );
    // Destructive calls run last so the real ids stay valid for the others as long as possible.
    operations.sort((a, b) => Number(a.method === 'delete') - Number(b.method === 'delete'));
    const failures: string[] = [];
    let sent = 0;
    const started = Date.now();
    for (const operation of operations) {
      for (const probe of probesFor(operation, resolve, realIds, next)) {
        // The /api long poll would hold every probe for 25 s; only probes of `timeoutMs` itself leave it out.
        const query = operation.path.endsWith('/work/poll') && !probe.query?.includes('timeoutMs') ? [probe.query, 'timeoutMs=0'].filter(Boolean).join('&') : probe.query;
        const url = `${platform.gatewayUrl}${probe.path}${query ? `?${query}` : ''}`;
        const headers: Record<string, string> = { ...credentialsFor(operation.op) };
        let body: string | undefined;
        if (probe.body !== undefined && operation.method !== 'get') {
          headers['content-type'] = 'application/json';
          body = probe.body !== null && typeof probe.body === 'object' && 'raw' in probe.body ? String(probe.body.raw) : JSON.stringify(probe.body);
        }
        const response = await fetch(url, { method: operation.method.toUpperCase(), headers, body, signal: AbortSignal.timeout(15_000) });
        sent += 1;
        const where = `${operation.method.toUpperCase()} ${operation.path} [${probe.label}]`;
        if (response.headers.get('content-type')?.includes('text/event-stream')) {
          await response.body?.cancel();
          continue;
        }
        const text = await response.text();
        if (response.status >= 500) {
          failures.push(`${where} → ${response.status} ${text.slice(0, 200)}`);
          continue;
        }
        if (response.status < 400) continue;
        let envelope: any;
        try {
          envelope = JSON.parse(text);
        } catch {
          failures.push(`${where} → ${response.status} with a non-JSON body`);
          continue;
        }
        const typed =
          envelope?.type === 'error' &&
          (CMA_ERROR_TYPES as readonly string[]).includes(envelope.error?.type) &&
          typeof envelope.error?.message === 'string' &&
          envelope.error.message.length > 0 &&
          typeof envelope.error?.code === 'string' &&
          (envelope.error.param === undefined || typeof envelope.error.param === 'string');
        if (!typed) failures.push(`${where} → ${response.status} untyped ${text.slice(0, 200)}`);
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
    expect(sent).toBeGreaterThan(operations.length * 5);
    // Bounded: the whole sweep stays well inside the test timeout on a loaded machine.
    expect(Date.now() - started).toBeLessThan(100_000);
  });
});
