import { RequestMethod, type Type } from '@nestjs/common';
import {
  CUSTOM_ROUTE_ARGS_METADATA,
  HTTP_CODE_METADATA,
  METHOD_METADATA,
  PATH_METADATA,
  ROUTE_ARGS_METADATA,
} from '@nestjs/common/constants.js';
import { IS_PUBLIC } from '@agentry/platform';
import { z } from 'zod';
import { DOC_REPLY, type DocReplyMetadata } from './doc-reply.decorator.js';
import { WORKER_ROUTE, type WorkerRoutePolicy } from '../workers/worker-route.decorator.js';

// Nest's RouteParamtypes values for the built-in parameter decorators the docs describe.
const QUERY = 4;
const PARAM = 5;
const HEADERS = 6;

/** One HTTP route as Nest registered it, with the zod schemas its parameters are parsed with. */
export interface RouteInfo {
  controller: string;
  handler: string;
  method: string;
  /** OpenAPI path template: `/api/agents/{id}`. */
  path: string;
  status: number;
  isPublic: boolean;
  body: z.ZodType | null;
  query: z.ZodType | null;
  /** Plain `@Query('x')` / `@Headers('x')` parameters, read as strings. */
  queryNames: string[];
  headerNames: string[];
  reply: DocReplyMetadata | null;
  /** Which worker credentials the route takes besides (or instead of) users and API keys. */
  workerPolicy: WorkerRoutePolicy | null;
}

interface RouteArg {
  index: number;
  data: unknown;
  factory?: (data: unknown, ctx: unknown) => unknown;
}

/** Every route of the controllers, read from the decorators' metadata. */
export function routesOf(controllers: readonly Type[]): RouteInfo[] {
  return controllers.flatMap((controller) => {
    const bases = asArray(Reflect.getMetadata(PATH_METADATA, controller) as string | string[] | undefined);
    const classPublic = Reflect.getMetadata(IS_PUBLIC, controller) === true;
    const prototype = controller.prototype as Record<string, unknown>;
    return methodNamesOf(prototype).flatMap((handler) => {
      const fn = prototype[handler];
      if (typeof fn !== 'function') return [];
      const paths = Reflect.getMetadata(PATH_METADATA, fn) as string | string[] | undefined;
      const verb = Reflect.getMetadata(METHOD_METADATA, fn) as RequestMethod | undefined;
      if (paths === undefined || verb === undefined) return [];
      const method = RequestMethod[verb].toLowerCase();
      const args = Object.entries(
        (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler) ?? {}) as Record<string, RouteArg>,
      );
      const status =
        (Reflect.getMetadata(HTTP_CODE_METADATA, fn) as number | undefined) ??
        (method === 'post' ? 201 : 200);
      const info = {
        controller: controller.name,
        handler,
        method,
        status,
        isPublic: classPublic || Reflect.getMetadata(IS_PUBLIC, fn) === true,
        reply: (Reflect.getMetadata(DOC_REPLY, fn) as DocReplyMetadata | undefined) ?? null,
        workerPolicy: (Reflect.getMetadata(WORKER_ROUTE, fn) as WorkerRoutePolicy | undefined) ?? null,
        ...parametersOf(args),
      };
      return bases.flatMap((base) => asArray(paths).map((path) => ({ ...info, path: joinPath(base, path) })));
    });
  });
}

/** Method names of a prototype and of those it inherits from, as Nest scans them for routes. */
function methodNamesOf(prototype: object): string[] {
  const names = new Set<string>();
  for (let p = prototype; p && p !== Object.prototype; p = Reflect.getPrototypeOf(p) as object) {
    for (const name of Object.getOwnPropertyNames(p)) if (name !== 'constructor') names.add(name);
  }
  return [...names];
}

function parametersOf(args: [string, RouteArg][]) {
  const out = {
    body: null as z.ZodType | null,
    query: null as z.ZodType | null,
    queryNames: [] as string[],
    headerNames: [] as string[],
  };
  for (const [key, arg] of args) {
    if (key.includes(CUSTOM_ROUTE_ARGS_METADATA)) {
      const schema = (arg.data as { zod?: z.ZodType } | undefined)?.zod;
      const where = schema && arg.factory ? probeSource(arg.factory) : null;
      if (where && schema) out[where] = schema;
      continue;
    }
    const type = Number(key.split(':')[0]);
    if (typeof arg.data !== 'string') continue;
    if (type === QUERY) out.queryNames.push(arg.data);
    if (type === HEADERS) out.headerNames.push(arg.data.toLowerCase());
    if (type === PARAM) continue; // path parameters come from the path template
  }
  return out;
}

/**
 * Which part of the request a zod parameter decorator reads: its factory runs against a fake request
 * with a pass-through schema, and what it returns says where it looked.
 */
function probeSource(factory: (data: unknown, ctx: unknown) => unknown): 'body' | 'query' | null {
  const body = { part: 'body' };
  const query = { part: 'query' };
  const ctx = { switchToHttp: () => ({ getRequest: () => ({ body, query }) }) };
  try {
    const seen = factory({ zod: z.unknown() }, ctx);
    return seen === body ? 'body' : seen === query ? 'query' : null;
  } catch {
    return null;
  }
}

function asArray(value: string | string[] | undefined): string[] {
  if (value === undefined) return [''];
  return Array.isArray(value) ? value : [value];
}

function joinPath(base: string, path: string): string {
  const joined = `/${[base, path].join('/')}`.replace(/\/+/g, '/').replace(/\/$/, '');
  // A trailing wildcard (`memories/*`) takes the rest of the path, documented as `{path}`.
  return (joined || '/').replace(/:([A-Za-z_]\w*)/g, '{$1}').replace(/\/\*$/, '/{path}');
}

/** The method names of a controller and of the classes it extends (Nest routes inherited handlers too). */
