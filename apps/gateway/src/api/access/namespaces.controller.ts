import { Controller, Get, HttpCode, Post, UseFilters } from '@nestjs/common';
import {
  ControlSubjects as A,
  CreateNamespaceRequestSchema,
  type Actor,
  type CreateNamespaceRequest,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { ChangesAccess } from '../../auth/changes-access.decorator.js';
import { CurrentActor } from '../../auth/current-actor.decorator.js';
import { ZodBody } from '../../http/zod-params.js';
import { ApiErrorFilter } from '../api-error.filter.js';

/**
 * The namespaces a caller belongs to (and may pick with `x-agentry-namespace`), with their role in
 * each; tenant administrators create them.
 */
@Controller('api')
@UseFilters(ApiErrorFilter)
export class NamespacesController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('namespaces')
  async list(@CurrentActor() actor: Actor) {
    return (await this.rpc.request(A.listNamespaces, { actor })).data;
  }

  @Post('admin/namespaces')
  @HttpCode(200)
  @ChangesAccess()
  create(@CurrentActor() actor: Actor, @ZodBody(CreateNamespaceRequestSchema) body: CreateNamespaceRequest) {
    return this.rpc.request(A.createNamespace, { actor, body });
  }
}
