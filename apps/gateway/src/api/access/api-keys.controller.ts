import { Controller, Delete, Get, HttpCode, Param, Post, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  AccessListQuerySchema,
  ControlSubjects as A,
  CreateApiKeyRequestSchema,
  type AccessListQuery,
  type Actor,
  type CreateApiKeyRequest,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { ChangesAccess } from '../../auth/changes-access.decorator.js';
import { CurrentActor } from '../../auth/current-actor.decorator.js';
import { ZodBody, ZodQuery } from '../../http/zod-params.js';
import { ApiErrorFilter } from '../api-error.filter.js';
import { toApiList } from '../api-page.js';

/** `/api/keys`: API keys of the signed-in user, bound to the namespace the request is in. */
@Controller('api/keys')
@UseFilters(ApiErrorFilter)
export class ApiKeysController {
  constructor(private readonly rpc: RpcClient) {}

  /** The reply's `key` is the only time the secret is ever shown. */
  @Post()
  @HttpCode(200)
  create(@CurrentActor() actor: Actor, @ZodBody(CreateApiKeyRequestSchema) body: CreateApiKeyRequest) {
    return this.rpc.request(A.createApiKey, { actor, body });
  }

  @Get()
  async list(
    @CurrentActor() actor: Actor,
    @ZodQuery(AccessListQuerySchema) query: AccessListQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return toApiList(reply, await this.rpc.request(A.listApiKeys, { actor, query }), (k) => k);
  }

  @Delete(':id')
  @ChangesAccess()
  revoke(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.request(A.revokeApiKey, { actor, id });
  }
}
