import { Controller, Delete, Get, HttpCode, Param, Patch, Post, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  AppError,
  ApiCreateCredentialRequestSchema,
  ApiCredentialSchema,
  ApiUpdateCredentialRequestSchema,
  ControlSubjects as S,
  CreateCredentialRequestSchema,
  ListParamsSchema,
  UpdateCredentialRequestSchema,
  apiCredentialToV1,
  apiCredentialUpdateToV1,
  credentialTarget,
  credentialToApi,
  type Actor,
  type ApiCreateCredentialRequest,
  type ApiUpdateCredentialRequest,
  type ListParams,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { DocReply } from '../docs/doc-reply.decorator.js';
import { parseOrThrow, ZodBody, ZodQuery } from '../http/zod-params.js';
import { ApiErrorFilter } from './api-error.filter.js';
import { toApiList } from './api-page.js';

/**
 * `/api/vaults/{id}/credentials` over the `/v1` credential handlers; replies never carry the secret.
 * AgentScope's `POST …/{cid}/validate` is not served: no handler decrypts a stored secret on request.
 */
@Controller('api/vaults/:id/credentials')
@UseFilters(ApiErrorFilter)
export class ApiVaultCredentialsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  @DocReply(ApiCredentialSchema)
  async create(
    @CurrentActor() actor: Actor,
    @Param('id') vaultId: string,
    @ZodBody(ApiCreateCredentialRequestSchema) body: ApiCreateCredentialRequest,
  ) {
    const request = parseOrThrow(CreateCredentialRequestSchema, apiCredentialToV1(body), 'body');
    return credentialToApi(await this.rpc.request(S.createCredential, { actor, vaultId, body: request }));
  }

  @Get()
  @DocReply(ApiCredentialSchema, { list: true })
  async list(
    @CurrentActor() actor: Actor,
    @Param('id') vaultId: string,
    @ZodQuery(ListParamsSchema) query: ListParams,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return toApiList(
      reply,
      await this.rpc.request(S.listCredentials, { actor, vaultId, query }),
      credentialToApi,
    );
  }

  @Patch(':cid')
  @DocReply(ApiCredentialSchema)
  async update(
    @CurrentActor() actor: Actor,
    @Param('id') vaultId: string,
    @Param('cid') id: string,
    @ZodBody(ApiUpdateCredentialRequestSchema) body: ApiUpdateCredentialRequest,
  ) {
    const current = await this.rpc.request(S.getCredential, { actor, vaultId, id });
    if (body.target !== undefined && body.target !== credentialTarget(current)) {
      throw new AppError(
        'INVALID_REQUEST',
        'target: a credential’s target cannot change; create a new credential instead',
      );
    }
    const request = parseOrThrow(
      UpdateCredentialRequestSchema,
      apiCredentialUpdateToV1(current.auth.type, body),
      'body',
    );
    return credentialToApi(await this.rpc.request(S.updateCredential, { actor, vaultId, id, body: request }));
  }

  @Delete(':cid')
  @HttpCode(204)
  async remove(
    @CurrentActor() actor: Actor,
    @Param('id') vaultId: string,
    @Param('cid') id: string,
  ): Promise<void> {
    await this.rpc.request(S.deleteCredential, { actor, vaultId, id });
  }
}
