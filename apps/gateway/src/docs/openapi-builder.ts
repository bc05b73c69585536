import { ErrorEnvelopeSchema } from '@agentry/contracts';
import { z } from 'zod';
import type { RouteEntry } from './route-entry.js';
import { OPENAPI_TAGS, TAG_GROUPS, tagOf } from './openapi-tags.js';
import { SchemaRegistry } from './schema-registry.js';
import { securityOf, WORKER_SECURITY_SCHEMES } from '../workers/worker-route-security.js';
import type { JsonSchema } from './zod-json-schema.js';

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  tags?: JsonSchema[];
  'x-tagGroups'?: JsonSchema[];
  paths: Record<string, Record<string, JsonSchema>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> };
}

const METHOD_ORDER = ['get', 'post', 'put', 'patch', 'delete'];

/** `/api` errors also name the offending field. */
const ApiErrorEnvelopeSchema = ErrorEnvelopeSchema.extend({
  error: ErrorEnvelopeSchema.shape.error.extend({ param: z.string().optional() }),
});

/**
 * The OpenAPI 3.1 document of a route table: bodies, queries and replies from the zod schemas each
 * entry names; deterministic, so the committed copy can be checked for drift.
 */
export function buildOpenApiDocument(routes: readonly RouteEntry[], version: string): OpenApiDocument {
  const registry = new SchemaRegistry();
  registry.ref(ErrorEnvelopeSchema, 'ErrorEnvelope', 'output');
  registry.ref(ApiErrorEnvelopeSchema, 'ApiErrorEnvelope', 'output');
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const sorted = [...routes].sort(
    (a, b) => a.path.localeCompare(b.path) || METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method),
  );
  for (const route of sorted) {
    const item = (paths[route.path] ??= {});
    if (item[route.method])
      throw new Error(`${route.method.toUpperCase()} ${route.path} is in the table twice`);
    item[route.method] = operationOf(route, registry);
  }
  const used = new Set(routes.map((r) => tagOf(r.path)));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Agentry API',
      version,
      description:
        '`/v1`: the Claude Managed Agents wire format (snake_case). `/api`: the AgentScope-compatible surface (camelCase).',
    },
    tags: OPENAPI_TAGS.filter((tag) => used.has(String(tag.name))),
    'x-tagGroups': TAG_GROUPS,
    paths,
    components: {
      schemas: registry.sortedSchemas(),
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'A user token from POST /api/auth/login, or an API key',
        },
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        ...WORKER_SECURITY_SCHEMES,
      },
    },
  };
}

function operationOf(route: RouteEntry, registry: SchemaRegistry): JsonSchema {
  const name = route.operationId.replace(/[^A-Za-z0-9_]/g, '_');
  const parameters: JsonSchema[] = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  if (route.query) parameters.push(...queryParameters(registry.inline(route.query, `${name}_query`)));
  for (const q of route.queryNames ?? [])
    parameters.push({ name: q, in: 'query', required: false, schema: { type: 'string' } });
  for (const h of route.headers ?? [])
    parameters.push({ name: h, in: 'header', required: false, schema: { type: 'string' } });
  const op: JsonSchema = {
    operationId: route.operationId,
    summary: route.summary,
    tags: [tagOf(route.path)],
  };
  if (parameters.length > 0) op.parameters = parameters;
  if (route.body) {
    const schema = registry.ref(route.body, `${name}_body`, 'input');
    op.requestBody = {
      required: true,
      content: { 'application/json': { schema, example: registry.example(schema) } },
    };
  }
  const error = route.path.startsWith('/api/') ? 'ApiErrorEnvelope' : 'ErrorEnvelope';
  const status = route.status ?? 200;
  op.responses = {
    [String(status)]: successOf(route, name, registry),
    default: {
      description: 'Error',
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${error}` } } },
    },
  };
  op.security = securityOf(route.auth ?? 'user');
  return op;
}

function successOf(route: RouteEntry, name: string, registry: SchemaRegistry): JsonSchema {
  if (route.status === 204) return { description: 'No content' };
  if (route.path.endsWith('/stream'))
    return {
      description: 'Server-sent events',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    };
  if (!route.reply) return { description: 'OK', content: { 'application/json': { schema: {} } } };
  const item = registry.ref(route.reply, `${name}_reply`, 'output');
  const schema = route.replyList ? { type: 'array', items: item } : item;
  return {
    description: 'OK',
    content: { 'application/json': { schema, example: registry.example(schema) } },
  };
}

function queryParameters(schema: JsonSchema): JsonSchema[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: required.has(name) && property.default === undefined,
    schema: property,
    ...(property.type === 'array' ? { style: 'form', explode: true } : {}),
  }));
}
