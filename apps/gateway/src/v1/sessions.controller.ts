import { Controller, Delete, HttpCode, Get, Param, Post } from '@nestjs/common';
import {
  ControlSubjects as R,
  ControlSubjects as S,
  CreateSessionRequestSchema,
  ListSessionsParamsSchema,
  UpdateSessionRequestSchema,
  type Actor,
  type CreateSessionRequest,
  type ListSessionsParams,
  type UpdateSessionRequest,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { ZodBody, ZodQuery } from '../http/zod-params.js';
import { SessionsTokenRoute } from '../workers/worker-route.decorator.js';

@Controller('v1/sessions')
export class SessionsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  create(@CurrentActor() actor: Actor, @ZodBody(CreateSessionRequestSchema) body: CreateSessionRequest) {
    return this.rpc.request(S.createSession, { actor, body });
  }

  @Get()
  list(@CurrentActor() actor: Actor, @ZodQuery(ListSessionsParamsSchema) query: ListSessionsParams) {
    return this.rpc.request(R.listSessions, { actor, query });
  }

  @Get(':id')
  @SessionsTokenRoute()
  get(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.request(S.getSession, { actor, id });
  }

  @Post(':id')
  @HttpCode(200)
  update(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @ZodBody(UpdateSessionRequestSchema) body: UpdateSessionRequest,
  ) {
    return this.rpc.request(R.updateSession, { actor, id, body });
  }

  @Post(':id/archive')
  @HttpCode(200)
  archive(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.request(R.archiveSession, { actor, id });
  }

  @Delete(':id')
  delete(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.request(R.deleteSession, { actor, id });
  }
}
