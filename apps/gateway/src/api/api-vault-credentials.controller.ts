import { Controller, HttpCode, Param, Patch, Post, UseFilters } from '@nestjs/common';
import {
  AppError,
  ControlSubjects as S,
  CreateCredentialRequestSchema,
  ListParamsSchema,
  UpdateCredentialRequestSchema,
  type Actor,
} from '@agentry/contracts';
import {
  ApiCreateCredentialRequestSchema,
  ApiUpdateCredentialRequestSchema,
  apiCredentialToV1,
  apiCredentialUpdateToV1,
  credentialTarget,
  credentialToApi,
  type ApiCreateCredentialRequest,
  type ApiUpdateCredentialRequest,
} from '@agentry/contracts/api';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { rpcRoutes } from '../http/rpc-routes.js';
import { parseOrThrow, ZodBody } from '../http/zod-params.js';
import { ApiErrorFilter } from './api-error.filter.js';

/**
 * `/api/vaults/{id}/credentials` over the `/v1` credential handlers; replies never carry the secret.
 * AgentScope's `POST …/{cid}/validate` is not served: no handler decrypts a stored secret on request.
 */
@Controller('api/vaults/:id/credentials')
@UseFilters(ApiErrorFilter)
export class ApiVaultCredentialsController extends rpcRoutes(
  {
    list: {
      route: 'GET',
      subject: S.listCredentials,
      query: ListParamsSchema,
      page: credentialToApi,
    },
    remove: { route: 'DELETE :cid', subject: S.deleteCredential, status: 204 },
  },
  { id: 'vaultId', cid: 'id' },
) {
  @Post()
  @HttpCode(200)
  async create(
    @CurrentActor() actor: Actor,
    @Param('id') vaultId: string,
    @ZodBody(ApiCreateCredentialRequestSchema) body: ApiCreateCredentialRequest,
  ) {
    const request = parseOrThrow(CreateCredentialRequestSchema, apiCredentialToV1(body), 'body');
    return credentialToApi(await this.rpc.request(S.createCredential, { actor, vaultId, body: request }));
  }

  @Patch(':cid')
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
}
