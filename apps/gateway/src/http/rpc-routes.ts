import { Delete, Get, HttpCode, Inject, Param, Patch, Post, Put, Res, type Type } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Actor, RpcSubject } from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import type { z } from 'zod';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { toApiList } from '../api/api-page.js';
import { ZodBody, ZodQuery } from './zod-params.js';

const VERBS = { GET: Get, POST: Post, PUT: Put, PATCH: Patch, DELETE: Delete } as const;

/**
 * A route that only hands the caller, its path parameters (`id`, `vaultId`...) and the parsed body
 * and query to one NATS subject, answering with the subject's reply (as it is, or mapped).
 */
export interface RpcRoute {
  /** Verb and path under the controller: `'GET'`, `'POST :id/archive'`. A POST answers 200 unless `status` says. */
  route: `${keyof typeof VERBS}${'' | ` ${string}`}`;
  subject: RpcSubject<z.ZodType, z.ZodType>;
  body?: z.ZodType;
  query?: z.ZodType;
  /** 204: the route answers nothing once the subject has answered; 201/202: created / accepted. */
  status?: 201 | 202 | 204;
  /** The reply as the client sees it, e.g. in `/api` spelling. */
  reply?: (result: never) => unknown;
  /** The reply is a `/v1` page answered as an `/api` list of items mapped so (cursor in a header). */
  page?: (item: never) => unknown;
  /** Further route decorators, such as which worker credentials it also takes. */
  decorators?: MethodDecorator[];
}

/** What a controller built by `rpcRoutes` offers its own hand-written routes. */
export interface RpcRoutes {
  readonly rpc: RpcClient;
}

/** How path parameters travel when the subject names them otherwise: `{ id: 'agentId' }`. */
export type ParamNames = Record<string, string>;

/**
 * A base class whose methods are the given routes, decorated as if written by hand: a resource's
 * controller extends it under its own `@Controller(path)` and adds what is specific to it.
 */
export function rpcRoutes(routes: Record<string, RpcRoute>, paramNames: ParamNames = {}): Type<RpcRoutes> {
  class RpcRoutesBase implements RpcRoutes {
    constructor(@Inject(RpcClient) readonly rpc: RpcClient) {}
  }
  for (const [name, route] of Object.entries(routes))
    defineRoute(RpcRoutesBase.prototype, name, route, paramNames);
  return RpcRoutesBase;
}

function defineRoute(prototype: object, name: string, spec: RpcRoute, paramNames: ParamNames): void {
  const [verb, path = ''] = spec.route.split(' ') as [keyof typeof VERBS, string?];
  const parsed: ['body' | 'query', ParameterDecorator][] = [];
  if (spec.body) parsed.push(['body', ZodBody(spec.body)]);
  if (spec.query) parsed.push(['query', ZodQuery(spec.query)]);
  async function handler(
    this: RpcRoutes,
    actor: Actor,
    params: Record<string, string>,
    ...values: unknown[]
  ) {
    const named = Object.entries(params).map(([key, value]) => [paramNames[key] ?? key, value]);
    const fields = parsed.map(([field], i) => [field, values[i]]);
    const result = await this.rpc.request(spec.subject, {
      actor,
      ...Object.fromEntries([...named, ...fields]),
    });
    if (spec.status === 204) return undefined;
    if (spec.page) {
      const page = result as { data: never[]; next_page: string | null };
      return toApiList(values[parsed.length] as FastifyReply, page, spec.page);
    }
    return spec.reply ? spec.reply(result as never) : result;
  }
  Object.defineProperty(handler, 'name', { value: name });
  const descriptor = { value: handler, writable: true, configurable: true, enumerable: false };
  const status = spec.status ?? (verb === 'POST' ? 200 : undefined);
  const decorators = [VERBS[verb](path), ...(status ? [HttpCode(status)] : []), ...(spec.decorators ?? [])];
  for (const decorate of decorators) decorate(prototype, name, descriptor);
  Object.defineProperty(prototype, name, descriptor);
  CurrentActor()(prototype, name, 0);
  Param()(prototype, name, 1);
  parsed.forEach(([, decorate], i) => decorate(prototype, name, 2 + i));
  if (spec.page) Res({ passthrough: true })(prototype, name, 2 + parsed.length);
}
