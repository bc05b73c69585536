import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ControlSubjects as S,
  SchedulerSubjects,
  CreateDeploymentRequestSchema,
  DeploymentRunSchema,
  ListDeploymentsParamsSchema,
  UpdateDeploymentRequestSchema,
  type Actor,
  type CreateDeploymentRequest,
  type ListDeploymentsParams,
  type UpdateDeploymentRequest,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { ZodBody, ZodQuery } from '../http/zod-params.js';
import { DocReply } from '../docs/doc-reply.decorator.js';

@Controller('v1/deployments')
export class DeploymentsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  create(
    @CurrentActor() actor: Actor,
    @ZodBody(CreateDeploymentRequestSchema) body: CreateDeploymentRequest,
  ) {
    return this.rpc.request(S.createDeployment, { actor, body });
  }

  @Get()
  list(@CurrentActor() actor: Actor, @ZodQuery(ListDeploymentsParamsSchema) query: ListDeploymentsParams) {
    return this.rpc.request(S.listDeployments, { actor, query });
  }

  @Get(':id')
  get(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.request(S.getDeployment, { actor, id });
  }

  @Post(':id')
  @HttpCode(200)
  update(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @ZodBody(UpdateDeploymentRequestSchema) body: UpdateDeploymentRequest,
  ) {
    return this.rpc.request(S.updateDeployment, { actor, id, body });
  }

  @Post(':id/pause')
  @HttpCode(200)
  pause(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.request(S.pauseDeployment, { actor, id });
  }

  @Post(':id/unpause')
  @HttpCode(200)
  unpause(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.request(S.unpauseDeployment, { actor, id });
  }

  @Post(':id/archive')
  @HttpCode(200)
  archive(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.request(S.archiveDeployment, { actor, id });
  }

  /** Runs the deployment now; the reply is the run record (a failed run still answers 200, as CMA does). */
  @Post(':id/run')
  @HttpCode(200)
  @DocReply(DeploymentRunSchema)
  run(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.request(SchedulerSubjects.runDeployment, { actor, id, trigger: 'manual' });
  }
}
