import { Controller, Delete, Get, HttpCode, Param, Post, Put, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  AppError,
  ControlSubjects as S,
  ListParamsSchema,
  MemoryPathSchema,
  type Actor,
  type ListParams,
  type Memory,
} from '@agentry/contracts';
import {
  ApiPutMemoryRequestSchema,
  ApiRedactMemoryRequestSchema,
  apiMemoryPathToV1,
  memoryToApi,
  memoryVersionToApi,
  type ApiPutMemoryRequest,
  type ApiRedactMemoryRequest,
} from '@agentry/contracts/api';
import { RpcClient } from '@agentry/platform';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { parseOrThrow, ZodBody, ZodQuery } from '../http/zod-params.js';
import { ApiErrorFilter } from './api-error.filter.js';
import { toApiList } from './api-page.js';

/**
 * `/api/memory-stores/{id}/memories`: memories addressed by path over the `/v1` memory handlers.
 * History is served at `/api/memory-stores/{id}/memory-versions/<path>` rather than AgentScope's
 * `memories/versions/<path>`, which cannot tell history from a memory stored under `versions/`.
 */
@Controller('api/memory-stores/:id')
@UseFilters(ApiErrorFilter)
export class ApiMemoriesController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('memories')
  async list(
    @CurrentActor() actor: Actor,
    @Param('id') storeId: string,
    @ZodQuery(ListParamsSchema) query: ListParams,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const page = await this.rpc.request(S.listMemories, {
      actor,
      storeId,
      query: { ...query, view: 'full' },
    });
    const memories = { ...page, data: page.data.filter((item): item is Memory => item.type === 'memory') };
    return toApiList(reply, memories, memoryToApi);
  }

  @Get('memories/*')
  async get(@CurrentActor() actor: Actor, @Param('id') storeId: string, @Param('*') path: string) {
    const memory = await this.require(actor, storeId, path);
    return memoryToApi(
      await this.rpc.request(S.getMemory, { actor, storeId, id: memory.id, query: { view: 'full' } }),
    );
  }

  /** Creates the memory at the path, or writes a new version of the one there. */
  @Put('memories/*')
  async put(
    @CurrentActor() actor: Actor,
    @Param('id') storeId: string,
    @Param('*') path: string,
    @ZodBody(ApiPutMemoryRequestSchema) body: ApiPutMemoryRequest,
  ) {
    const v1Path = this.v1Path(path);
    const existing = await this.find(actor, storeId, v1Path);
    const query = { view: 'full' as const };
    const memory = existing
      ? await this.rpc.request(S.updateMemory, {
          actor,
          storeId,
          id: existing.id,
          body: { content: body.content },
          query,
        })
      : await this.rpc.request(S.createMemory, {
          actor,
          storeId,
          body: { path: v1Path, content: body.content },
          query,
        });
    return memoryToApi(memory);
  }

  @Delete('memories/*')
  @HttpCode(204)
  async remove(
    @CurrentActor() actor: Actor,
    @Param('id') storeId: string,
    @Param('*') path: string,
  ): Promise<void> {
    const memory = await this.require(actor, storeId, path);
    await this.rpc.request(S.deleteMemory, { actor, storeId, id: memory.id });
  }

  @Get('memory-versions/*')
  async versions(
    @CurrentActor() actor: Actor,
    @Param('id') storeId: string,
    @Param('*') path: string,
    @ZodQuery(ListParamsSchema) query: ListParams,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const memory = await this.require(actor, storeId, path);
    const page = await this.rpc.request(S.listMemoryVersions, {
      actor,
      storeId,
      query: { ...query, memory_id: memory.id, view: 'full' },
    });
    return toApiList(reply, page, memoryVersionToApi);
  }

  /** Removes the memory's content from every version; a replacement then becomes its new content. */
  @Post('redact')
  @HttpCode(200)
  async redact(
    @CurrentActor() actor: Actor,
    @Param('id') storeId: string,
    @ZodBody(ApiRedactMemoryRequestSchema) body: ApiRedactMemoryRequest,
  ) {
    const memory = await this.require(actor, storeId, body.path);
    await this.rpc.request(S.redactMemoryVersion, { actor, storeId, id: memory.memory_version_id });
    const query = { view: 'full' as const };
    const after =
      body.replacement === undefined
        ? await this.rpc.request(S.getMemory, { actor, storeId, id: memory.id, query })
        : await this.rpc.request(S.updateMemory, {
            actor,
            storeId,
            id: memory.id,
            body: { content: body.replacement },
            query,
          });
    return memoryToApi(after);
  }

  private v1Path(path: string | undefined): string {
    return parseOrThrow(MemoryPathSchema, apiMemoryPathToV1(path ?? ''), 'path');
  }

  private async require(actor: Actor, storeId: string, path: string | undefined): Promise<Memory> {
    const v1Path = this.v1Path(path);
    const memory = await this.find(actor, storeId, v1Path);
    if (!memory) throw new AppError('NOT_FOUND', `No memory at ${v1Path} in memory store ${storeId}`);
    return memory;
  }

  /** The live memory at exactly this path: the first of those the path prefixes (listed in path order). */
  private async find(actor: Actor, storeId: string, path: string): Promise<Memory | undefined> {
    const page = await this.rpc.request(S.listMemories, {
      actor,
      storeId,
      query: { path_prefix: path, limit: 100, view: 'basic' },
    });
    return page.data.find((item): item is Memory => item.type === 'memory' && item.path === path);
  }
}
