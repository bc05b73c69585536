import { Controller, HttpCode, Get, Param, Post } from '@nestjs/common';
import {
  ControlSubjects as R,
  ControlSubjects as S,
  CreateAgentRequestSchema,
  ListParamsSchema,
  RetrieveAgentParamsSchema,
  UpdateAgentRequestSchema,
  type Actor,
  type CreateAgentRequest,
  type ListParams,
  type RetrieveAgentParams,
  type UpdateAgentRequest,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { ZodBody, ZodQuery } from '../http/zod-params.js';

@Controller('v1/agents')
export class AgentsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  create(@CurrentActor() actor: Actor, @ZodBody(CreateAgentRequestSchema) body: CreateAgentRequest) {
    return this.rpc.request(S.createAgent, { actor, body });
  }

  @Get()
  list(@CurrentActor() actor: Actor, @ZodQuery(ListParamsSchema) query: ListParams) {
    return this.rpc.request(S.listAgents, { actor, query });
  }

  @Get(':id')
  get(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @ZodQuery(RetrieveAgentParamsSchema) query: RetrieveAgentParams,
  ) {
    return this.rpc.request(S.getAgent, { actor, id, query });
  }

  @Post(':id')
  @HttpCode(200)
  update(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @ZodBody(UpdateAgentRequestSchema) body: UpdateAgentRequest,
  ) {
    return this.rpc.request(R.updateAgent, { actor, id, body });
  }

  @Post(':id/archive')
  @HttpCode(200)
  archive(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.request(R.archiveAgent, { actor, id });
  }

  @Get(':id/versions')
  versions(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @ZodQuery(ListParamsSchema) query: ListParams,
  ) {
    return this.rpc.request(R.listAgentVersions, { actor, id, query });
  }
}
