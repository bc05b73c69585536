import { Controller, Delete, Get, HttpCode, Param, Patch, Post, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  ControlSubjects as S,
  CreateMemoryStoreRequestSchema,
  ListParamsSchema,
  UpdateMemoryStoreRequestSchema,
  type Actor,
  type CreateMemoryStoreRequest,
  type ListParams,
  type UpdateMemoryStoreRequest,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { ZodBody, ZodQuery } from '../http/zod-params.js';
import { camelKeys } from './api-case.js';
import { ApiErrorFilter } from './api-error.filter.js';
import { toApiList } from './api-page.js';

/** `/api/memory-stores`: stores in camelCase over the `/v1` handlers (the bodies have no snake_case field). */
@Controller('api/memory-stores')
@UseFilters(ApiErrorFilter)
export class ApiMemoryStoresController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  async create(
    @CurrentActor() actor: Actor,
    @ZodBody(CreateMemoryStoreRequestSchema) body: CreateMemoryStoreRequest,
  ) {
    return camelKeys(await this.rpc.request(S.createMemoryStore, { actor, body }));
  }

  @Get()
  async list(
    @CurrentActor() actor: Actor,
    @ZodQuery(ListParamsSchema) query: ListParams,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return toApiList(reply, await this.rpc.request(S.listMemoryStores, { actor, query }), camelKeys);
  }

  @Get(':id')
  async get(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return camelKeys(await this.rpc.request(S.getMemoryStore, { actor, id }));
  }

  @Patch(':id')
  async update(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @ZodBody(UpdateMemoryStoreRequestSchema) body: UpdateMemoryStoreRequest,
  ) {
    return camelKeys(await this.rpc.request(S.updateMemoryStore, { actor, id, body }));
  }

  @Post(':id/archive')
  @HttpCode(200)
  async archive(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return camelKeys(await this.rpc.request(S.archiveMemoryStore, { actor, id }));
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<void> {
    await this.rpc.request(S.deleteMemoryStore, { actor, id });
  }
}
