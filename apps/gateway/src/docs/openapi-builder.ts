import type { Type } from '@nestjs/common';
import { ErrorEnvelopeSchema } from '@agentry/contracts';
import { z } from 'zod';
import { routesOf, type RouteInfo } from './route-metadata.js';
import { toOpenApiSchema, type JsonSchema } from './zod-json-schema.js';
import { securityOf, WORKER_SECURITY_SCHEMES } from '../workers/worker-route-security.js';

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  paths: Record<string, Record<string, JsonSchema>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> };
}

const METHOD_ORDER = ['get', 'post', 'put', 'patch', 'delete'];

/** `/api` errors also name the offending field. */
const ApiErrorEnvelopeSchema = ErrorEnvelopeSchema.extend({
  error: ErrorEnvelopeSchema.shape.error.extend({ param: z.string().optional() }),
});

/**
 * The OpenAPI 3.1 document of the given controllers, built from their route decorators and the zod
 * schemas their parameters are parsed with; deterministic, so the committed copy can be checked for drift.
 */
export function buildOpenApiDocument(controllers: readonly Type[], version: string): OpenApiDocument {
  const schemas: Record<string, JsonSchema> = {};
  schemas.ErrorEnvelope = toOpenApiSchema(ErrorEnvelopeSchema, 'ErrorEnvelope', schemas);
  schemas.ApiErrorEnvelope = toOpenApiSchema(ApiErrorEnvelopeSchema, 'ApiErrorEnvelope', schemas);
  const registry = new SchemaRegistry(schemas);
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const routes = routesOf(controllers).sort(
    (a, b) => a.path.localeCompare(b.path) || METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method),
  );
  for (const route of routes) {
    const item = (paths[route.path] ??= {});
    if (!item[route.method]) item[route.method] = operationOf(route, registry);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Agentry API',
      version,
      description:
        '`/v1`: the Claude Managed Agents wire format (snake_case). `/api`: the AgentScope-compatible surface (camelCase).',
    },
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
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

/**
 * Bodies and replies become components, one per zod schema: a schema shared by several routes
 * (the agent body on create and update, the agent reply everywhere) is written once.
 */
class SchemaRegistry {
  private readonly names = new Map<z.ZodType, string>();

  constructor(readonly schemas: Record<string, JsonSchema>) {}

  ref(schema: z.ZodType, name: string): JsonSchema {
    let known = this.names.get(schema);
    if (!known) {
      known = name;
      this.names.set(schema, name);
      const json = toOpenApiSchema(schema, name, this.schemas);
      if (json.$ref === undefined) this.schemas[name] = json;
    }
    return { $ref: `#/components/schemas/${known}` };
  }
}

function operationOf(route: RouteInfo, registry: SchemaRegistry): JsonSchema {
  const schemas = registry.schemas;
  const operationId = `${lowerFirst(route.controller.replace(/Controller$/, ''))}_${route.handler}`;
  const name = operationId.replace(/[^A-Za-z0-9_]/g, '_');
  const parameters: JsonSchema[] = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  if (route.query)
    parameters.push(...queryParameters(toOpenApiSchema(route.query, `${name}_query`, schemas)));
  for (const q of route.queryNames)
    parameters.push({ name: q, in: 'query', required: false, schema: { type: 'string' } });
  for (const h of route.headerNames)
    parameters.push({ name: h, in: 'header', required: false, schema: { type: 'string' } });
  const op: JsonSchema = { operationId, tags: [tagOf(route.path)] };
  if (parameters.length > 0) op.parameters = parameters;
  if (route.body) {
    op.requestBody = {
      required: true,
      content: { 'application/json': { schema: registry.ref(route.body, `${name}_body`) } },
    };
  }
  const error = route.path.startsWith('/api/') ? 'ApiErrorEnvelope' : 'ErrorEnvelope';
  op.responses = {
    [String(route.status)]: successOf(route, name, registry),
    default: {
      description: 'Error',
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${error}` } } },
    },
  };
  if (route.isPublic) op.security = [];
  else op.security = securityOf(route.workerPolicy);
  return op;
}

function successOf(route: RouteInfo, name: string, registry: SchemaRegistry): JsonSchema {
  if (route.status === 204) return { description: 'No content' };
  if (route.path.endsWith('/stream'))
    return {
      description: 'Server-sent events',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    };
  if (!route.reply) return { description: 'OK', content: { 'application/json': { schema: {} } } };
  const item = registry.ref(route.reply.schema, `${name}_reply`);
  const schema = route.reply.list ? { type: 'array', items: item } : item;
  return { description: 'OK', content: { 'application/json': { schema } } };
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

function tagOf(path: string): string {
  const [surface, resource] = path.split('/').filter(Boolean);
  return resource ? `${surface}/${resource}` : (surface ?? '');
}

function lowerFirst(value: string): string {
  return value.charAt(0).toLowerCase() + value.slice(1);
}
