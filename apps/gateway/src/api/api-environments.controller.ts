import { Controller, Delete, Get, HttpCode, Param, Patch, Post, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  ApiEnvironmentSchema,
  ApiCreateEnvironmentRequestSchema,
  ApiUpdateEnvironmentRequestSchema,
  ControlSubjects as R,
  ControlSubjects as S,
  CreateEnvironmentRequestSchema,
  ListParamsSchema,
  UpdateEnvironmentRequestSchema,
  apiEnvironmentToV1,
  apiEnvironmentUpdateToV1,
  v1EnvironmentToApi,
  type Actor,
  type ApiCreateEnvironmentRequest,
  type ApiUpdateEnvironmentRequest,
  type Environment,
  type ListParams,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { parseOrThrow, ZodBody, ZodQuery } from '../http/zod-params.js';
import { DocReply } from '../docs/doc-reply.decorator.js';
import { ApiErrorFilter } from './api-error.filter.js';
import { toApiList } from './api-page.js';

/**
 * `/api/environments` over the `/v1` environment handlers. As in AgentScope, creation answers with a
 * new environment key (`apiKey`, shown this once) for every type, and `rotate-key` replaces it.
 */
@Controller('api/environments')
@UseFilters(ApiErrorFilter)
export class ApiEnvironmentsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  @DocReply(ApiEnvironmentSchema)
  async create(
    @CurrentActor() actor: Actor,
    @ZodBody(ApiCreateEnvironmentRequestSchema) body: ApiCreateEnvironmentRequest,
  ) {
    const request = parseOrThrow(CreateEnvironmentRequestSchema, apiEnvironmentToV1(body), 'body');
    const environment = await this.rpc.request(S.createEnvironment, { actor, body: request });
    return this.withNewKey(actor, environment, false);
  }

  @Get()
  @DocReply(ApiEnvironmentSchema, { list: true })
  async list(
    @CurrentActor() actor: Actor,
    @ZodQuery(ListParamsSchema) query: ListParams,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const page = await this.rpc.request(R.listEnvironments, { actor, query });
    return toApiList(reply, page, (environment) => v1EnvironmentToApi(environment));
  }

  @Get(':id')
  @DocReply(ApiEnvironmentSchema)
  async get(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return v1EnvironmentToApi(await this.rpc.request(S.getEnvironment, { actor, id }));
  }

  /** `type` never changes; the stored type decides how `config` is read. */
  @Patch(':id')
  @DocReply(ApiEnvironmentSchema)
  async update(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @ZodBody(ApiUpdateEnvironmentRequestSchema) body: ApiUpdateEnvironmentRequest,
  ) {
    const current = await this.rpc.request(S.getEnvironment, { actor, id });
    const request = parseOrThrow(
      UpdateEnvironmentRequestSchema,
      apiEnvironmentUpdateToV1(body, current),
      'body',
    );
    return v1EnvironmentToApi(await this.rpc.request(R.updateEnvironment, { actor, id, body: request }));
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<void> {
    await this.rpc.request(R.deleteEnvironment, { actor, id });
  }

  @Post(':id/archive')
  @HttpCode(200)
  @DocReply(ApiEnvironmentSchema)
  async archive(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return v1EnvironmentToApi(await this.rpc.request(R.archiveEnvironment, { actor, id }));
  }

  /** A new key in clear text, once; every earlier key of the environment stops working. */
  @Post(':id/rotate-key')
  @HttpCode(200)
  @DocReply(ApiEnvironmentSchema)
  async rotateKey(@CurrentActor() actor: Actor, @Param('id') id: string) {
    const environment = await this.rpc.request(S.getEnvironment, { actor, id });
    return this.withNewKey(actor, environment, true);
  }

  private async withNewKey(actor: Actor, environment: Environment, revokeExisting: boolean) {
    const key = await this.rpc.request(R.createEnvironmentKey, {
      actor,
      id: environment.id,
      body: { revoke_existing: revokeExisting },
    });
    return v1EnvironmentToApi(environment, key.key);
  }
}
