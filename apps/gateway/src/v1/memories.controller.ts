import { Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ControlSubjects as S,
  CreateMemoryRequestSchema,
  ListMemoriesParamsSchema,
  UpdateMemoryRequestSchema,
  type Actor,
  type CreateMemoryRequest,
  type ListMemoriesParams,
  type UpdateMemoryRequest,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { ZodBody, ZodQuery } from '../http/zod-params.js';
import { ViewQuerySchema, type ViewQuery } from './memory-view-query.js';

@Controller('v1/memory_stores/:storeId/memories')
export class MemoriesController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  create(
    @CurrentActor() actor: Actor,
    @Param('storeId') storeId: string,
    @ZodBody(CreateMemoryRequestSchema) body: CreateMemoryRequest,
    @ZodQuery(ViewQuerySchema) query: ViewQuery,
  ) {
    return this.rpc.request(S.createMemory, { actor, storeId, body, query });
  }

  @Get()
  list(
    @CurrentActor() actor: Actor,
    @Param('storeId') storeId: string,
    @ZodQuery(ListMemoriesParamsSchema) query: ListMemoriesParams,
  ) {
    return this.rpc.request(S.listMemories, { actor, storeId, query });
  }

  @Get(':id')
  get(
    @CurrentActor() actor: Actor,
    @Param('storeId') storeId: string,
    @Param('id') id: string,
    @ZodQuery(ViewQuerySchema) query: ViewQuery,
  ) {
    return this.rpc.request(S.getMemory, { actor, storeId, id, query });
  }

  @Post(':id')
  @HttpCode(200)
  update(
    @CurrentActor() actor: Actor,
    @Param('storeId') storeId: string,
    @Param('id') id: string,
    @ZodBody(UpdateMemoryRequestSchema) body: UpdateMemoryRequest,
    @ZodQuery(ViewQuerySchema) query: ViewQuery,
  ) {
    return this.rpc.request(S.updateMemory, { actor, storeId, id, body, query });
  }

  @Delete(':id')
  delete(@CurrentActor() actor: Actor, @Param('storeId') storeId: string, @Param('id') id: string) {
    return this.rpc.request(S.deleteMemory, { actor, storeId, id });
  }
}
