import { Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ControlSubjects as S,
  CreateCredentialRequestSchema,
  ListParamsSchema,
  UpdateCredentialRequestSchema,
  type Actor,
  type CreateCredentialRequest,
  type ListParams,
  type UpdateCredentialRequest,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { ZodBody, ZodQuery } from '../http/zod-params.js';

@Controller('v1/vaults/:vaultId/credentials')
export class VaultCredentialsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  create(
    @CurrentActor() actor: Actor,
    @Param('vaultId') vaultId: string,
    @ZodBody(CreateCredentialRequestSchema) body: CreateCredentialRequest,
  ) {
    return this.rpc.request(S.createCredential, { actor, vaultId, body });
  }

  @Get()
  list(
    @CurrentActor() actor: Actor,
    @Param('vaultId') vaultId: string,
    @ZodQuery(ListParamsSchema) query: ListParams,
  ) {
    return this.rpc.request(S.listCredentials, { actor, vaultId, query });
  }

  @Get(':id')
  get(@CurrentActor() actor: Actor, @Param('vaultId') vaultId: string, @Param('id') id: string) {
    return this.rpc.request(S.getCredential, { actor, vaultId, id });
  }

  @Post(':id')
  @HttpCode(200)
  update(
    @CurrentActor() actor: Actor,
    @Param('vaultId') vaultId: string,
    @Param('id') id: string,
    @ZodBody(UpdateCredentialRequestSchema) body: UpdateCredentialRequest,
  ) {
    return this.rpc.request(S.updateCredential, { actor, vaultId, id, body });
  }

  @Post(':id/archive')
  @HttpCode(200)
  archive(@CurrentActor() actor: Actor, @Param('vaultId') vaultId: string, @Param('id') id: string) {
    return this.rpc.request(S.archiveCredential, { actor, vaultId, id });
  }

  @Delete(':id')
  delete(@CurrentActor() actor: Actor, @Param('vaultId') vaultId: string, @Param('id') id: string) {
    return this.rpc.request(S.deleteCredential, { actor, vaultId, id });
  }
}
