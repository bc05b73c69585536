import { Controller, Get, HttpCode, Post, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  AccessListQuerySchema,
  ControlSubjects as T,
  CreateTenantRequestSchema,
  type AccessListQuery,
  type Actor,
  type CreateTenantRequest,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { CurrentActor } from '../../auth/current-actor.decorator.js';
import { ZodBody, ZodQuery } from '../../http/zod-params.js';
import { ApiErrorFilter } from '../api-error.filter.js';
import { toApiList } from '../api-page.js';

/** `/api/admin/tenants`: the camelCase twin of `/v1/tenants`, for installation administrators only. */
@Controller('api/admin/tenants')
@UseFilters(ApiErrorFilter)
export class AdminTenantsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  create(@CurrentActor() actor: Actor, @ZodBody(CreateTenantRequestSchema) body: CreateTenantRequest) {
    return this.rpc.request(T.createTenant, { actor, body });
  }

  @Get()
  async list(
    @CurrentActor() actor: Actor,
    @ZodQuery(AccessListQuerySchema) query: AccessListQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return toApiList(reply, await this.rpc.request(T.listTenants, { actor, query }), (t) => t);
  }
}
