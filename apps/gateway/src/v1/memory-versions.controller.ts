import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ControlSubjects as S,
  ListMemoryVersionsParamsSchema,
  type Actor,
  type ListMemoryVersionsParams,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { ZodQuery } from '../http/zod-params.js';
import { ViewQuerySchema, type ViewQuery } from './memory-view-query.js';

@Controller('v1/memory_stores/:storeId/memory_versions')
export class MemoryVersionsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  list(
    @CurrentActor() actor: Actor,
    @Param('storeId') storeId: string,
    @ZodQuery(ListMemoryVersionsParamsSchema) query: ListMemoryVersionsParams,
  ) {
    return this.rpc.request(S.listMemoryVersions, { actor, storeId, query });
  }

  @Get(':id')
  get(
    @CurrentActor() actor: Actor,
    @Param('storeId') storeId: string,
    @Param('id') id: string,
    @ZodQuery(ViewQuerySchema) query: ViewQuery,
  ) {
    return this.rpc.request(S.getMemoryVersion, { actor, storeId, id, query });
  }

  @Post(':id/redact')
  @HttpCode(200)
  redact(@CurrentActor() actor: Actor, @Param('storeId') storeId: string, @Param('id') id: string) {
    return this.rpc.request(S.redactMemoryVersion, { actor, storeId, id });
  }
}
