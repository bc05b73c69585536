import { Controller, Get, HttpCode, Inject, Param, Post, Put, UseFilters } from '@nestjs/common';
import {
  ControlSubjects as R,
  ControlSubjects as S,
  CreateAgentRequestSchema,
  ListParamsSchema,
  UpdateAgentRequestSchema,
  type Actor,
} from '@agentry/contracts';
import {
  ApiAgentRequestSchema,
  apiAgentToV1,
  apiAgentUpdateToV1,
  v1AgentToApi,
  type ApiAgentRequest,
} from '@agentry/contracts/api';
import { defaultModelId, RpcClient } from '@agentry/platform';
import { z } from 'zod';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { rpcRoutes } from '../http/rpc-routes.js';
import { GATEWAY_CONFIG, type GatewayEnv } from '../config/env.js';
import { parseOrThrow, ZodBody } from '../http/zod-params.js';
import { ApiErrorFilter } from './api-error.filter.js';

const VersionSchema = z.coerce.number().int().min(1, 'must be a positive version number');

/** AgentScope called the coordinator roster an `agent_team`; CMA calls it `coordinator`. */
function withCmaMultiagent(body: ApiAgentRequest): ApiAgentRequest {
  if (body.multiagent?.type !== 'agent_team') return body;
  return { ...body, multiagent: { ...body.multiagent, type: 'coordinator' } };
}

const answersAgentList = { page: v1AgentToApi };

/** `/api/agents`: camelCase agents over the same control handlers as `/v1/agents`. */
@Controller('api/agents')
@UseFilters(ApiErrorFilter)
export class ApiAgentsController extends rpcRoutes({
  list: { route: 'GET', subject: S.listAgents, query: ListParamsSchema, ...answersAgentList },
  archive: {
    route: 'POST :id/archive',
    subject: R.archiveAgent,
    reply: v1AgentToApi,
  },
  versions: {
    route: 'GET :id/versions',
    subject: R.listAgentVersions,
    query: ListParamsSchema,
    ...answersAgentList,
  },
}) {
  /** The model an agent gets when the body names none (AgentScope let `model` be omitted). */
  private readonly defaultModel: string;

  constructor(rpc: RpcClient, @Inject(GATEWAY_CONFIG) config: GatewayEnv) {
    super(rpc);
    this.defaultModel = defaultModelId(config);
  }

  @Post()
  @HttpCode(200)
  async create(@CurrentActor() actor: Actor, @ZodBody(ApiAgentRequestSchema) body: ApiAgentRequest) {
    const mapped = apiAgentToV1(withCmaMultiagent(body), { defaultModel: this.defaultModel });
    const request = parseOrThrow(CreateAgentRequestSchema, mapped, 'body');
    return v1AgentToApi(await this.rpc.request(S.createAgent, { actor, body: request }));
  }

  @Get(':id')
  async get(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return v1AgentToApi(await this.rpc.request(S.getAgent, { actor, id, query: {} }));
  }

  /** Writes a new version; a `version` in the body makes it conditional (stale → 409). */
  @Put(':id')
  async update(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @ZodBody(ApiAgentRequestSchema) body: ApiAgentRequest,
  ) {
    const request = parseOrThrow(
      UpdateAgentRequestSchema,
      apiAgentUpdateToV1(withCmaMultiagent(body)),
      'body',
    );
    return v1AgentToApi(await this.rpc.request(R.updateAgent, { actor, id, body: request }));
  }

  @Get(':id/versions/:version')
  async version(@CurrentActor() actor: Actor, @Param('id') id: string, @Param('version') version: string) {
    const pinned = parseOrThrow(VersionSchema, version, 'version');
    return v1AgentToApi(await this.rpc.request(S.getAgent, { actor, id, query: { version: pinned } }));
  }
}
