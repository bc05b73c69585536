import { Controller, HttpCode, Param, Patch, Post, UseFilters } from '@nestjs/common';
import {
  ControlSubjects as R,
  ControlSubjects as S,
  CreateEnvironmentRequestSchema,
  ListParamsSchema,
  UpdateEnvironmentRequestSchema,
  type Actor,
  type Environment,
} from '@agentry/contracts';
import {
  ApiCreateEnvironmentRequestSchema,
  ApiUpdateEnvironmentRequestSchema,
  apiEnvironmentToV1,
  apiEnvironmentUpdateToV1,
  v1EnvironmentToApi,
  type ApiCreateEnvironmentRequest,
  type ApiUpdateEnvironmentRequest,
} from '@agentry/contracts/api';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { rpcRoutes } from '../http/rpc-routes.js';
import { parseOrThrow, ZodBody } from '../http/zod-params.js';
import { ApiErrorFilter } from './api-error.filter.js';

/** A list's map passes the index too, which must not be read as a new key. */
const environmentToApi = (environment: Environment) => v1EnvironmentToApi(environment);

/**
 * `/api/environments` over the `/v1` environment handlers. As in AgentScope, creation answers with a
 * new environment key (`apiKey`, shown this once) for every type, and `rotate-key` replaces it.
 */
@Controller('api/environments')
@UseFilters(ApiErrorFilter)
export class ApiEnvironmentsController extends rpcRoutes({
  list: {
    route: 'GET',
    subject: R.listEnvironments,
    query: ListParamsSchema,
    page: environmentToApi,
  },
  get: {
    route: 'GET :id',
    subject: S.getEnvironment,
    reply: environmentToApi,
  },
  remove: { route: 'DELETE :id', subject: R.deleteEnvironment, status: 204 },
  archive: {
    route: 'POST :id/archive',
    subject: R.archiveEnvironment,
    reply: environmentToApi,
  },
}) {
  @Post()
  @HttpCode(200)
  async create(
    @CurrentActor() actor: Actor,
    @ZodBody(ApiCreateEnvironmentRequestSchema) body: ApiCreateEnvironmentRequest,
  ) {
    const request = parseOrThrow(CreateEnvironmentRequestSchema, apiEnvironmentToV1(body), 'body');
    const environment = await this.rpc.request(S.createEnvironment, { actor, body: request });
    return this.withNewKey(actor, environment, false);
  }

  /** `type` never changes; the stored type decides how `config` is read. */
  @Patch(':id')
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

  /** A new key in clear text, once; every earlier key of the environment stops working. */
  @Post(':id/rotate-key')
  @HttpCode(200)
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
