import {
  INJECTION_STRINGS,
  LONG_STRING,
  NUMBER_EDGES,
  UNICODE_EDGES,
  deeplyNested,
  type Json,
  type Variant,
} from './fuzz-values.js';

/** Walks the request schemas of `docs/openapi.json`: a valid example, and mutations of every property. */

/** The parts of a JSON Schema, as an OpenAPI document holds them, that the fuzzer reads. */
export interface Schema {
  $ref?: string;
  type?: string | string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  const?: Json;
  enum?: Json[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  format?: string;
}

/** The OpenAPI document as the fuzzer reads it: its operations by path and method, and its named schemas. */
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, Schema> };
}

export type Resolve = (schema: Schema) => Schema;

/** A body variant: the mutated value, and what was done to it. */
export interface BodyMutation {
  label: string;
  body: Json;
}

const MAX_DEPTH = 3;

export function resolver(document: OpenApiDocument): Resolve {
  const resolve: Resolve = (schema) => {
    const ref = schema.$ref ? /#\/components\/schemas\/(.+)$/.exec(schema.$ref)?.[1] : undefined;
    return ref ? resolve(document.components?.schemas?.[ref] ?? {}) : schema;
  };
  return resolve;
}

/** The branch a union most likely means: its first one that is not `null`. */
export function primary(schema: Schema, resolve: Resolve): Schema {
  const resolved = resolve(schema);
  const branches = resolved.anyOf ?? resolved.oneOf;
  if (!branches) return resolved;
  const chosen = branches.map(resolve).find((b) => b.type !== 'null') ?? branches[0]!;
  return primary(chosen, resolve);
}

export function typeOf(schema: Schema): string | undefined {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type) return type;
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  return undefined;
}

/** A small value the schema accepts, as far as a plain walk can tell (patterns are not honoured). */
export function example(schema: Schema, resolve: Resolve, depth = 0): Json {
  const s = primary(schema, resolve);
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0] ?? null;
  switch (typeOf(s)) {
    case 'object': {
      const properties = s.properties ?? {};
      const required = s.required ?? [];
      return depth > 6
        ? {}
        : Object.fromEntries(
            required.map((key) => [key, example(properties[key] ?? {}, resolve, depth + 1)]),
          );
    }
    case 'array':
      return depth > 6
        ? []
        : Array.from({ length: s.minItems ?? 0 }, () => example(s.items ?? {}, resolve, depth + 1));
    case 'string':
      return s.format === 'date-time' ? '2026-01-01T00:00:00Z' : 'x'.repeat(Math.max(1, s.minLength ?? 1));
    case 'integer':
    case 'number':
      return Math.min(Math.max(1, s.minimum ?? 1), s.maximum ?? 1);
    case 'boolean':
      return true;
    default:
      return null;
  }
}

/** A value of another JSON type than the schema asks for. */
function wrongType(type: string | undefined): Json {
  switch (type) {
    case 'string':
      return 12345;
    case 'integer':
    case 'number':
      return '12';
    case 'boolean':
      return 'true';
    case 'array':
      return { 0: 'not an array' };
    case 'object':
      return ['not', 'an', 'object'];
    default:
      return { unexpected: [true] };
  }
}

/** Values for one property: wrong type, boundaries, oversize, unicode edges, per its schema. */
function valueVariants(schema: Schema, resolve: Resolve): Variant[] {
  const s = primary(schema, resolve);
  const type = typeOf(s);
  const variants: Variant[] = [
    { label: 'wrong type', value: wrongType(type) },
    { label: 'null', value: null },
  ];
  if (s.enum || s.const !== undefined)
    variants.push({ label: 'outside the enum', value: 'zzz_not_a_member' });
  switch (type) {
    case 'string':
      variants.push(
        { label: 'empty', value: '' },
        { label: 'very long', value: LONG_STRING },
        ...UNICODE_EDGES,
        ...INJECTION_STRINGS,
      );
      if (typeof s.maxLength === 'number')
        variants.push({ label: 'maxLength + 1', value: 'm'.repeat(s.maxLength + 1) });
      if (s.format === 'date-time')
        variants.push({ label: 'impossible date', value: '2026-02-30T25:61:00Z' });
      break;
    case 'integer':
    case 'number':
      variants.push(...NUMBER_EDGES);
      if (typeof s.maximum === 'number') variants.push({ label: 'maximum + 1', value: s.maximum + 1 });
      if (typeof s.minimum === 'number') variants.push({ label: 'minimum - 1', value: s.minimum - 1 });
      break;
    case 'array':
      variants.push(
        { label: 'empty array', value: [] },
        {
          label: '10 000 items',
          value: Array.from({ length: 10_000 }, () => example(s.items ?? {}, resolve)),
        },
        {
          label: 'items of the wrong type',
          value: [wrongType(typeOf(primary(s.items ?? {}, resolve))), null],
        },
      );
      break;
    case 'object':
      variants.push(
        { label: 'empty object', value: {} },
        { label: 'deep nesting', value: deeplyNested(1000) },
        { label: 'unknown key', value: { zzz_unknown: 1, constructor: { prototype: { polluted: true } } } },
        {
          label: 'many keys',
          value: Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, 'v'])),
        },
      );
      break;
    default:
      variants.push({ label: 'deep nesting', value: deeplyNested(1000) }, ...UNICODE_EDGES.slice(0, 3));
  }
  return variants;
}

/** A copy of `base` with `value` at `path`, creating the objects and arrays on the way. */
function setAt(base: Json, path: (string | number)[], value: Json): Json {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  if (typeof head === 'number') {
    const items = Array.isArray(base) ? [...base] : [];
    items[head] = setAt(items[head] ?? null, rest, value);
    return items;
  }
  const fields: Record<string, Json> =
    base && typeof base === 'object' && !Array.isArray(base) ? { ...base } : {};
  fields[head] = setAt(fields[head] ?? null, rest, value);
  return fields;
}

function getAt(base: Json, path: (string | number)[]): Json | undefined {
  return path.reduce<Json | undefined>((value, key) => {
    if (Array.isArray(value)) return typeof key === 'number' ? value[key] : undefined;
    return value && typeof value === 'object' ? value[String(key)] : undefined;
  }, base);
}

/** Every property reachable from a body schema (to MAX_DEPTH), with its path inside the body. */
function properties(
  schema: Schema,
  resolve: Resolve,
  path: (string | number)[] = [],
): Array<{ path: (string | number)[]; schema: Schema }> {
  if (path.length >= MAX_DEPTH) return [];
  const s = primary(schema, resolve);
  const type = typeOf(s);
  if (type === 'array' && s.items) {
    const item = [...path, 0];
    return [{ path: item, schema: s.items }, ...properties(s.items, resolve, item)];
  }
  if (type !== 'object') return [];
  return Object.entries(s.properties ?? {}).flatMap(([key, child]) => {
    const at = [...path, key];
    return [{ path: at, schema: child }, ...properties(child, resolve, at)];
  });
}

/**
 * Mutations of `base` (a valid body): each property replaced by each of its hostile values, each required
 * field dropped, unknown fields added, the whole body nested deeply or of the wrong type.
 */
export function bodyMutations(schema: Schema, base: Json, resolve: Resolve): BodyMutation[] {
  const root = primary(schema, resolve);
  const mutations: BodyMutation[] = [
    { label: 'body null', body: null },
    { label: 'body an array', body: [base] },
    { label: 'body a string', body: 'just a string' },
    { label: 'body a number', body: 42 },
    { label: 'body empty object', body: {} },
    { label: 'body deeply nested', body: { ...(base as object), zzz_deep: deeplyNested(1500) } },
    {
      label: 'body with unknown field',
      body: { ...(base as object), zzz_unknown: 'x', __defineGetter__: 1 },
    },
  ];
  for (const key of root.required ?? []) {
    const { [key]: _dropped, ...rest } = (base ?? {}) as Record<string, Json>;
    mutations.push({ label: `without required ${key}`, body: rest });
  }
  for (const property of properties(root, resolve)) {
    const where = property.path.join('.');
    // A nested property is mutated inside its parent as the valid body has it, or as an example builds it.
    const parent = property.path.slice(0, -1);
    const withParent =
      parent.length && getAt(base, parent) === undefined
        ? setAt(base, parent, example(parentSchema(root, parent, resolve), resolve))
        : base;
    for (const variant of valueVariants(property.schema, resolve)) {
      mutations.push({
        label: `${where}: ${variant.label}`,
        body: setAt(withParent, property.path, variant.value),
      });
    }
  }
  return mutations;
}

function parentSchema(root: Schema, path: (string | number)[], resolve: Resolve): Schema {
  return path.reduce<Schema>((schema, key) => {
    const s = primary(schema, resolve);
    return typeof key === 'number' ? (s.items ?? {}) : (s.properties?.[key] ?? {});
  }, root);
}
