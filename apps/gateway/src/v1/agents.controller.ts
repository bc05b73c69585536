import { Controller, HttpCode, Get, Param, Post } from '@nestjs/common';
import {
  ControlSubjects as S,
  CreateAgentRequestSchema,
  ListParamsSchema,
  RetrieveAgentParamsSchema,
  type Actor,
  type CreateAgentRequest,
  type ListParams,
  type RetrieveAgentParams,
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
  get(@CurrentActor() actor: Actor, @Param('id') id: string, @ZodQuery(RetrieveAgentParamsSchema) query: RetrieveAgentParams) {
    return this.rpc.request(S.getAgent, { actor, id, query });
  }
}
