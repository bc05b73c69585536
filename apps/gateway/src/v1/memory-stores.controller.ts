import { Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
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

@Controller('v1/memory_stores')
export class MemoryStoresController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  create(
    @CurrentActor() actor: Actor,
    @ZodBody(CreateMemoryStoreRequestSchema) body: CreateMemoryStoreRequest,
  ) {
    return this.rpc.request(S.createMemoryStore, { actor, body });
  }

  @Get()
  list(@CurrentActor() actor: Actor, @ZodQuery(ListParamsSchema) query: ListParams) {
    return this.rpc.request(S.listMemoryStores, { actor, query });
  }

  @Get(':id')
  get(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.request(S.getMemoryStore, { actor, id });
  }

  @Post(':id')
  @HttpCode(200)
  update(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @ZodBody(UpdateMemoryStoreRequestSchema) body: UpdateMemoryStoreRequest,
  ) {
    return this.rpc.request(S.updateMemoryStore, { actor, id, body });
  }

  @Post(':id/archive')
  @HttpCode(200)
  archive(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.request(S.archiveMemoryStore, { actor, id });
  }

  @Delete(':id')
  delete(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.request(S.deleteMemoryStore, { actor, id });
  }
}
