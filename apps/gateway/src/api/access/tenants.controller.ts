import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import {
  AccessListQuerySchema,
  ControlSubjects as T,
  CreateTenantRequestSchema,
  toV1CreatedTenant,
  toV1Tenant,
  type AccessListQuery,
  type Actor,
  type CreateTenantRequest,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { CurrentActor } from '../../auth/current-actor.decorator.js';
import { ZodBody, ZodQuery } from '../../http/zod-params.js';

/**
 * `/v1/tenants` (Agentry extension): administrators of the installation's bootstrap tenant create
 * tenants, each with a default namespace and a first administrator; everyone else gets 403.
 */
@Controller('v1/tenants')
export class TenantsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  async create(@CurrentActor() actor: Actor, @ZodBody(CreateTenantRequestSchema) body: CreateTenantRequest) {
    return toV1CreatedTenant(await this.rpc.request(T.createTenant, { actor, body }));
  }

  @Get()
  async list(@CurrentActor() actor: Actor, @ZodQuery(AccessListQuerySchema) query: AccessListQuery) {
    const page = await this.rpc.request(T.listTenants, { actor, query });
    return { data: page.data.map(toV1Tenant), next_page: page.next_page };
  }
}
