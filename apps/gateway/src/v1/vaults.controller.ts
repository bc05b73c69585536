import { Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ControlSubjects as S,
  CreateVaultRequestSchema,
  ListParamsSchema,
  UpdateVaultRequestSchema,
  type Actor,
  type CreateVaultRequest,
  type ListParams,
  type UpdateVaultRequest,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { ZodBody, ZodQuery } from '../http/zod-params.js';

@Controller('v1/vaults')
export class VaultsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  create(@CurrentActor() actor: Actor, @ZodBody(CreateVaultRequestSchema) body: CreateVaultRequest) {
    return this.rpc.request(S.createVault, { actor, body });
  }

  @Get()
  list(@CurrentActor() actor: Actor, @ZodQuery(ListParamsSchema) query: ListParams) {
    return this.rpc.request(S.listVaults, { actor, query });
  }

  @Get(':id')
  get(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.request(S.getVault, { actor, id });
  }

  @Post(':id')
  @HttpCode(200)
  update(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @ZodBody(UpdateVaultRequestSchema) body: UpdateVaultRequest,
  ) {
    return this.rpc.request(S.updateVault, { actor, id, body });
  }

  @Post(':id/archive')
  @HttpCode(200)
  archive(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.request(S.archiveVault, { actor, id });
  }

  @Delete(':id')
  delete(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.request(S.deleteVault, { actor, id });
  }
}
