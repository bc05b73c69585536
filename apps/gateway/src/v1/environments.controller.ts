import { Controller, Delete, HttpCode, Get, Param, Post } from '@nestjs/common';
import {
  ControlSubjects as R,
  ControlSubjects as S,
  CreateEnvironmentKeyRequestSchema,
  CreateEnvironmentRequestSchema,
  ListParamsSchema,
  UpdateEnvironmentRequestSchema,
  type Actor,
  type CreateEnvironmentKeyRequest,
  type CreateEnvironmentRequest,
  type ListParams,
  type UpdateEnvironmentRequest,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { ZodBody, ZodQuery } from '../http/zod-params.js';

@Controller('v1/environments')
export class EnvironmentsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  create(
    @CurrentActor() actor: Actor,
    @ZodBody(CreateEnvironmentRequestSchema) body: CreateEnvironmentRequest,
  ) {
    return this.rpc.request(S.createEnvironment, { actor, body });
  }

  @Get()
  list(@CurrentActor() actor: Actor, @ZodQuery(ListParamsSchema) query: ListParams) {
    return this.rpc.request(R.listEnvironments, { actor, query });
  }

  @Get(':id')
  get(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.request(S.getEnvironment, { actor, id });
  }

  @Post(':id')
  @HttpCode(200)
  update(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @ZodBody(UpdateEnvironmentRequestSchema) body: UpdateEnvironmentRequest,
  ) {
    return this.rpc.request(R.updateEnvironment, { actor, id, body });
  }

  @Post(':id/archive')
  @HttpCode(200)
  archive(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.request(R.archiveEnvironment, { actor, id });
  }

  @Delete(':id')
  delete(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.request(R.deleteEnvironment, { actor, id });
  }

  /** A new worker key, shown once; `{"revoke_existing": true}` rotates (revokes the others). */
  @Post(':id/keys')
  @HttpCode(200)
  createKey(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @ZodBody(CreateEnvironmentKeyRequestSchema.default({})) body: CreateEnvironmentKeyRequest,
  ) {
    return this.rpc.request(R.createEnvironmentKey, { actor, id, body });
  }

  @Get(':id/keys')
  listKeys(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.request(R.listEnvironmentKeys, { actor, id });
  }

  @Post(':id/keys/:keyId/revoke')
  @HttpCode(200)
  revokeKey(@CurrentActor() actor: Actor, @Param('id') id: string, @Param('keyId') keyId: string) {
    return this.rpc.request(R.revokeEnvironmentKey, { actor, id, keyId });
  }
}
