import { Controller, Delete, Get, HttpCode, Param, Patch, Post, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  AccessListQuerySchema,
  AddNamespaceMemberRequestSchema,
  ControlSubjects as T,
  UpdateNamespaceMemberRequestSchema,
  type AccessListQuery,
  type Actor,
  type AddNamespaceMemberRequest,
  type UpdateNamespaceMemberRequest,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { ChangesAccess } from '../../auth/changes-access.decorator.js';
import { CurrentActor } from '../../auth/current-actor.decorator.js';
import { ZodBody, ZodQuery } from '../../http/zod-params.js';
import { ApiErrorFilter } from '../api-error.filter.js';
import { toApiList } from '../api-page.js';

/**
 * `/api/admin/namespaces/{id}/members`: tenant administrators put users in namespaces with a role
 * (member or viewer). Removing a member revokes their API keys for that namespace.
 */
@Controller('api/admin/namespaces/:id/members')
@UseFilters(ApiErrorFilter)
export class NamespaceMembersController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  async list(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @ZodQuery(AccessListQuerySchema) query: AccessListQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return toApiList(reply, await this.rpc.request(T.listMembers, { actor, id, query }), (m) => m);
  }

  @Post()
  @HttpCode(200)
  @ChangesAccess()
  add(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @ZodBody(AddNamespaceMemberRequestSchema) body: AddNamespaceMemberRequest,
  ) {
    return this.rpc.request(T.addMember, { actor, id, body });
  }

  @Patch(':userId')
  @ChangesAccess()
  update(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Param('userId') userId: string,
    @ZodBody(UpdateNamespaceMemberRequestSchema) body: UpdateNamespaceMemberRequest,
  ) {
    return this.rpc.request(T.updateMember, { actor, id, userId, body });
  }

  @Delete(':userId')
  @ChangesAccess()
  remove(@CurrentActor() actor: Actor, @Param('id') id: string, @Param('userId') userId: string) {
    return this.rpc.request(T.removeMember, { actor, id, userId });
  }
}
