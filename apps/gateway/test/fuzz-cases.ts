import { bodyFor } from './route-bodies.js';
import type { Operation } from './route-catalog.js';
import { bodyMutations, example, primary, typeOf, type Resolve, type Schema } from './fuzz-schema.js';
import { badIds, badQueryValues, rng, shuffled, type Json } from './fuzz-values.js';
import { fillPath, pathParams, unfillable, type Fixtures } from './route-params.js';

/** One hostile request: an operation of the document, sent with one part of its input mutated. */
export interface FuzzCase {
  op: Operation;
  label: string;
  /** Filled path, query string included. */
  url: string;
  headers: Record<string, string>;
  /** JSON (serialised as sent), or a raw body with its content type. */
  body?: { json: Json } | { raw: string | Uint8Array; contentType: string };
}

export interface DocumentOperation extends Operation {
  schema: Schema;
}

/** The parts of an operation's OpenAPI object that its cases are built from. */
interface OperationObject {
  parameters?: ParameterObject[];
  requestBody?: { content?: Partial<Record<string, { schema?: Schema }>> };
}

interface ParameterObject {
  name: string;
  in: string;
  schema?: Schema;
}

/** Long polls would hold a probe for their whole wait; every probe asks them not to wait. */
const NO_WAIT: Record<string, string> = { '/api/environments/{id}/work/poll': 'timeoutMs=0' };
const WAIT_PARAMS = new Set(['timeoutMs', 'timeout_ms', 'wait', 'block_ms']);
const WRITES = new Set(['POST', 'PUT', 'PATCH']);

/** Every mutation of one operation, filled from `ids`, the valid input it departs from being `bodyFor`'s. */
export function casesFor(
  op: DocumentOperation,
  ids: Fixtures,
  resolve: Resolve,
  bodyLimitBytes: number,
): FuzzCase[] {
  const cases: FuzzCase[] = [];
  const path = unfillable(op.path, ids) ? op.path.replace(/\{\w+\}/g, 'nope') : fillPath(op.path, ids);
  const baseQuery = NO_WAIT[op.path] ?? '';
  const url = (p: string, q: string) => (q ? `${p}?${q}` : p);
  const add = (
    label: string,
    c: Omit<FuzzCase, 'op' | 'label' | 'headers'> & { headers?: Record<string, string> },
  ) => cases.push({ op, label, headers: {}, ...c });
  const operation = op.schema as OperationObject;
  const jsonSchema = operation.requestBody?.content?.['application/json']?.schema;
  const given = bodyFor(op, ids);
  const validBody: Json | undefined = jsonSchema
    ? given !== undefined && !(given instanceof FormData)
      ? (given as Json)
      : example(jsonSchema, resolve)
    : undefined;
  const withValidBody = validBody === undefined ? {} : { body: { json: validBody } };

  // Path: each parameter in turn replaced by a bad id, the others kept valid.
  const segments = path.split('/');
  const paramIndexes = op.path.split('/').flatMap((segment, i) => (/^\{\w+\}$/.test(segment) ? [i] : []));
  pathParams(op.path).forEach((param, n) => {
    const index = paramIndexes[n]!;
    for (const bad of badIds(ids[param.fixture!])) {
      const mutated = segments.map((segment, i) => (i === index ? (bad.value as string) : segment)).join('/');
      add(`path {${param.name}}: ${bad.label}`, { url: url(mutated, baseQuery), ...withValidBody });
    }
  });

  // Query and headers: each declared parameter given each bad value of its type.
  for (const param of operation.parameters ?? []) {
    if (WAIT_PARAMS.has(param.name)) continue;
    const type = typeOf(primary(param.schema ?? {}, resolve));
    if (param.in === 'query') {
      const name = encodeURIComponent(param.name);
      for (const bad of badQueryValues(type, param.name)) {
        add(`query ${param.name}: ${bad.label}`, {
          url: url(path, [baseQuery, `${name}=${bad.value as string}`].filter(Boolean).join('&')),
          ...withValidBody,
        });
      }
      add(`query ${param.name}: repeated`, {
        url: url(path, [baseQuery, `${name}=1&${name}=-1&${name}[]=x`].filter(Boolean).join('&')),
        ...withValidBody,
      });
    } else if (param.in === 'header') {
      for (const value of ['-1', 'zzz_not_an_id', '9'.repeat(400), '../../etc/passwd', '\u00e9\u00e8']) {
        add(`header ${param.name}: ${JSON.stringify(value.slice(0, 20))}`, {
          url: url(path, baseQuery),
          headers: { [param.name]: value },
          ...withValidBody,
        });
      }
    }
  }
  add('unknown query parameters', {
    url: url(path, [baseQuery, 'zzz_unknown=1&limit=-5&page=%00'].filter(Boolean).join('&')),
    ...withValidBody,
  });

  // Body: the schema's mutations, then what no schema describes (bad JSON, too large, another media type).
  if (jsonSchema && validBody !== undefined) {
    for (const mutation of bodyMutations(jsonSchema, validBody, resolve))
      add(`body ${mutation.label}`, { url: url(path, baseQuery), body: { json: mutation.body } });
  }
  if (WRITES.has(op.method)) {
    const at = url(path, baseQuery);
    add('body invalid JSON', {
      url: at,
      body: { raw: '{"name": "unterminated', contentType: 'application/json' },
    });
    add('body __proto__ key', {
      url: at,
      body: { raw: '{"__proto__":{"polluted":true}}', contentType: 'application/json' },
    });
    add('body wrong media type', { url: at, body: { raw: 'name=x', contentType: 'text/plain' } });
    add('body nested 50 000 deep', {
      url: at,
      body: { raw: `${'{"a":['.repeat(50_000)}1${']}'.repeat(50_000)}`, contentType: 'application/json' },
    });
    add('body over the size limit', {
      url: at,
      body: { raw: JSON.stringify({ blob: 'o'.repeat(bodyLimitBytes) }), contentType: 'application/json' },
    });
    // `{"name":"` + a UTF-8-encoded lone surrogate and a stray byte + `"}`.
    const invalidUtf8 = Uint8Array.from([
      ...Buffer.from('{"name":"'),
      0xed,
      0xa0,
      0x80,
      0xff,
      ...Buffer.from('"}'),
    ]);
    add('body invalid UTF-8', {
      url: at,
      body: { raw: invalidUtf8, contentType: 'application/json; charset=utf-8' },
    });
  }
  return cases;
}

/**
 * A bounded, deterministic sample: each operation's cases in a seeded order, taken round-robin across
 * operations until `limit`, so every route is probed even in a small sample. `Infinity` takes them all.
 */
export function sampleCases(byOperation: FuzzCase[][], limit: number, seed: number): FuzzCase[] {
  const next = rng(seed);
  const queues = byOperation.map((cases) => shuffled(cases, next));
  const picked: FuzzCase[] = [];
  for (let round = 0; picked.length < limit; round++) {
    const taken = queues.flatMap((queue) => (round < queue.length ? [queue[round]!] : []));
    if (taken.length === 0) break;
    picked.push(...taken.slice(0, limit - picked.length));
  }
  return picked;
}

/** Deletes, archives, revocations, rotations and sign-outs go last, so an accepted one spoils no other case. */
export function isDestructive(op: Operation): boolean {
  return op.method === 'DELETE' || /\/(archive|revoke|rotate-key|logout)$/.test(op.path);
}
