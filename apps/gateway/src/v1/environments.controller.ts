import { Controller, HttpCode, Get, Param, Post } from '@nestjs/common';
import {
  ControlSubjects as S,
  CreateEnvironmentRequestSchema,
  type Actor,
  type CreateEnvironmentRequest,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { ZodBody } from '../http/zod-params.js';

@Controller('v1/environments')
export class EnvironmentsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  create(@CurrentActor() actor: Actor, @ZodBody(CreateEnvironmentRequestSchema) body: CreateEnvironmentRequest) {
    return this.rpc.request(S.createEnvironment, { actor, body });
  }

  @Get(':id')
  get(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.request(S.getEnvironment, { actor, id });
  }
}
