import { Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  AddSessionResourceRequestSchema,
  ListParamsSchema,
  SessionResourceSubjects as S,
  UpdateSessionResourceRequestSchema,
  type Actor,
  type AddSessionResourceRequest,
  type ListParams,
  type UpdateSessionResourceRequest,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { ZodBody, ZodQuery } from '../http/zod-params.js';

/** CMA `client.beta.sessions.resources.*`: a repository's token can be rotated but is never returned. */
@Controller('v1/sessions/:sessionId/resources')
export class SessionResourcesController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  list(
    @CurrentActor() actor: Actor,
    @Param('sessionId') sessionId: string,
    @ZodQuery(ListParamsSchema) query: ListParams,
  ) {
    return this.rpc.request(S.list, { actor, sessionId, query });
  }

  @Post()
  @HttpCode(200)
  add(
    @CurrentActor() actor: Actor,
    @Param('sessionId') sessionId: string,
    @ZodBody(AddSessionResourceRequestSchema) body: AddSessionResourceRequest,
  ) {
    return this.rpc.request(S.add, { actor, sessionId, body });
  }

  @Get(':id')
  get(@CurrentActor() actor: Actor, @Param('sessionId') sessionId: string, @Param('id') id: string) {
    return this.rpc.request(S.get, { actor, sessionId, id });
  }

  @Post(':id')
  @HttpCode(200)
  update(
    @CurrentActor() actor: Actor,
    @Param('sessionId') sessionId: string,
    @Param('id') id: string,
    @ZodBody(UpdateSessionResourceRequestSchema) body: UpdateSessionResourceRequest,
  ) {
    return this.rpc.request(S.update, { actor, sessionId, id, body });
  }

  @Delete(':id')
  delete(@CurrentActor() actor: Actor, @Param('sessionId') sessionId: string, @Param('id') id: string) {
    return this.rpc.request(S.delete, { actor, sessionId, id });
  }
}
