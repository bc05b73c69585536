import { Controller, HttpCode, Get, Param, Post } from '@nestjs/common';
import { ControlSubjects as S, CreateSessionRequestSchema, type Actor, type CreateSessionRequest } from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { ZodBody } from '../http/zod-params.js';

@Controller('v1/sessions')
export class SessionsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  create(@CurrentActor() actor: Actor, @ZodBody(CreateSessionRequestSchema) body: CreateSessionRequest) {
    return this.rpc.request(S.createSession, { actor, body });
  }

  @Get(':id')
  get(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.request(S.getSession, { actor, id });
  }
}
