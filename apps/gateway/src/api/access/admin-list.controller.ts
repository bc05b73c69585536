import { Get, Inject, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Actor, RpcSubject } from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import type { z } from 'zod';
import { CurrentActor } from '../../auth/current-actor.decorator.js';
import { ZodQuery } from '../../http/zod-params.js';
import { ApiErrorFilter } from '../api-error.filter.js';
import { toApiList } from '../api-page.js';

/** A control subject listing one collection of the actor's tenant, a page at a time. */
type AdminListSubject<Q extends z.ZodType> = RpcSubject<
  z.ZodType<{ actor: Actor; query: z.output<Q> }>,
  z.ZodType<{ data: unknown[]; next_page: string | null }>
>;

/**
 * The base of an `/api/admin` collection: `GET` relays the control subject's pages as a bare list, the
 * next page's cursor in `x-next-page`. Tenant administrators only; control answers 403 to anyone else.
 */
export function AdminListController<Q extends z.ZodType>(subject: AdminListSubject<Q>, querySchema: Q) {
  @UseFilters(ApiErrorFilter)
  abstract class AdminList {
    constructor(@Inject(RpcClient) readonly rpc: RpcClient) {}

    @Get()
    async list(
      @CurrentActor() actor: Actor,
      @ZodQuery(querySchema) query: z.output<Q>,
      @Res({ passthrough: true }) reply: FastifyReply,
    ) {
      return toApiList(reply, await this.rpc.request(subject, { actor, query }), (item) => item);
    }
  }
  return AdminList;
}
