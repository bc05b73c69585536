import { Controller, Delete, Get, HttpCode, Param, Patch, Post, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  ControlSubjects as S,
  CreateVaultRequestSchema,
  ListParamsSchema,
  MetadataPatchSchema,
  MetadataSchema,
  UpdateVaultRequestSchema,
  type Actor,
  type ListParams,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { z } from 'zod';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { parseOrThrow, ZodBody, ZodQuery } from '../http/zod-params.js';
import { camelKeys } from './api-case.js';
import { ApiErrorFilter } from './api-error.filter.js';
import { toApiList } from './api-page.js';

const ApiCreateVaultSchema = z.strictObject({ displayName: z.string(), metadata: MetadataSchema.optional() });
const ApiUpdateVaultSchema = z.strictObject({
  displayName: z.string().nullish(),
  metadata: MetadataPatchSchema.nullish(),
});
type ApiCreateVault = z.infer<typeof ApiCreateVaultSchema>;
type ApiUpdateVault = z.infer<typeof ApiUpdateVaultSchema>;

/** `/api/vaults`: vaults in camelCase over the `/v1` vault handlers; credentials stay on `/v1`. */
@Controller('api/vaults')
@UseFilters(ApiErrorFilter)
export class ApiVaultsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  async create(@CurrentActor() actor: Actor, @ZodBody(ApiCreateVaultSchema) body: ApiCreateVault) {
    const request = parseOrThrow(
      CreateVaultRequestSchema,
      { display_name: body.displayName, metadata: body.metadata },
      'body',
    );
    return camelKeys(await this.rpc.request(S.createVault, { actor, body: request }));
  }

  @Get()
  async list(
    @CurrentActor() actor: Actor,
    @ZodQuery(ListParamsSchema) query: ListParams,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return toApiList(reply, await this.rpc.request(S.listVaults, { actor, query }), camelKeys);
  }

  @Get(':id')
  async get(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return camelKeys(await this.rpc.request(S.getVault, { actor, id }));
  }

  @Patch(':id')
  async update(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @ZodBody(ApiUpdateVaultSchema) body: ApiUpdateVault,
  ) {
    const request = parseOrThrow(
      UpdateVaultRequestSchema,
      { display_name: body.displayName, metadata: body.metadata },
      'body',
    );
    return camelKeys(await this.rpc.request(S.updateVault, { actor, id, body: request }));
  }

  @Post(':id/archive')
  @HttpCode(200)
  async archive(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return camelKeys(await this.rpc.request(S.archiveVault, { actor, id }));
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<void> {
    await this.rpc.request(S.deleteVault, { actor, id });
  }
}
