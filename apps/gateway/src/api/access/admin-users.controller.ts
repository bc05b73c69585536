import { Controller, HttpCode, Param, Patch, Post } from '@nestjs/common';
import {
  AccessListQuerySchema,
  ControlSubjects as A,
  CreateUserRequestSchema,
  UpdateUserRequestSchema,
  type Actor,
  type CreateUserRequest,
  type UpdateUserRequest,
} from '@agentry/contracts';
import { ChangesAccess } from '../../auth/changes-access.decorator.js';
import { CurrentActor } from '../../auth/current-actor.decorator.js';
import { ZodBody } from '../../http/zod-params.js';
import { AdminListController } from './admin-list.controller.js';

/** `/api/admin/users`: tenant administrators list, create and change the tenant's users. */
@Controller('api/admin/users')
export class AdminUsersController extends AdminListController(A.listUsers, AccessListQuerySchema) {
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
