import { Controller, Get, HttpCode, Param, Patch, Post, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  AccessListQuerySchema,
  ControlSubjects as A,
  CreateUserRequestSchema,
  UpdateUserRequestSchema,
  type AccessListQuery,
  type Actor,
  type CreateUserRequest,
  type UpdateUserRequest,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { ChangesAccess } from '../../auth/changes-access.decorator.js';
import { CurrentActor } from '../../auth/current-actor.decorator.js';
import { ZodBody, ZodQuery } from '../../http/zod-params.js';
import { ApiErrorFilter } from '../api-error.filter.js';
import { toApiList } from '../api-page.js';

/** `/api/admin/users`: tenant administrators manage users; everyone else gets 403. */
@Controller('api/admin/users')
@UseFilters(ApiErrorFilter)
export class AdminUsersController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  async list(
    @CurrentActor() actor: Actor,
    @ZodQuery(AccessListQuerySchema) query: AccessListQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return toApiList(reply, await this.rpc.request(A.listUsers, { actor, query }), (u) => u);
  }

  @Post()
  @HttpCode(200)
  create(@CurrentActor() actor: Actor, @ZodBody(CreateUserRequestSchema) body: CreateUserRequest) {
    return this.rpc.request(A.createUser, { actor, body });
  }

  @Patch(':id')
  @ChangesAccess()
  update(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @ZodBody(UpdateUserRequestSchema) body: UpdateUserRequest,
  ) {
    return this.rpc.request(A.updateUser, { actor, id, body });
  }
}
