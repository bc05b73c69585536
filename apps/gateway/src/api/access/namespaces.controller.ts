import { Controller, Get, HttpCode, Post, UseFilters } from '@nestjs/common';
import { ControlAccessSubjects as A, CreateNamespaceRequestSchema, type Actor, type CreateNamespaceRequest } from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { CurrentActor } from '../../auth/current-actor.decorator.js';
import { ZodBody } from '../../http/zod-params.js';
import { ApiErrorFilter } from '../api-error.filter.js';

/** Namespaces a caller may pick with `x-agentry-namespace`; administrators create them. */
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
  create(@CurrentActor() actor: Actor, @ZodBody(CreateNamespaceRequestSchema) body: CreateNamespaceRequest) {
    return this.rpc.request(A.createNamespace, { actor, body });
  }
}
