import { Controller, Delete, Get, HttpCode, Param, Post, UseFilters } from '@nestjs/common';
import {
  AppError,
  ControlSubjects as A,
  ShareAgentRequestSchema,
  type Actor,
  type ShareAgentRequest,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { CurrentActor } from '../../auth/current-actor.decorator.js';
import { ZodBody } from '../../http/zod-params.js';
import { ApiErrorFilter } from '../api-error.filter.js';

/** The seed's agent shares: `{granteeType:"user", granteeId, tier: RUN|EDIT}`. */
@Controller('api/agents/:id/shares')
@UseFilters(ApiErrorFilter)
export class AgentSharesController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  async list(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return (await this.rpc.request(A.listAgentShares, { actor, id })).data;
  }

  @Post()
  @HttpCode(200)
  share(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @ZodBody(ShareAgentRequestSchema) body: ShareAgentRequest,
  ) {
    return this.rpc.request(A.shareAgent, { actor, id, body });
  }

  @Delete(':granteeType/:granteeId')
  async unshare(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Param('granteeType') type: string,
    @Param('granteeId') granteeId: string,
  ) {
    if (type !== 'user') throw new AppError('INVALID_REQUEST', 'granteeType: only "user" is supported');
    const { deleted } = await this.rpc.request(A.unshareAgent, { actor, id, granteeId });
    if (!deleted) throw new AppError('NOT_FOUND', `Agent ${id} is not shared with user ${granteeId}`);
    return { deleted };
  }
}
