import { Controller, Get, Param } from '@nestjs/common';
import {
  ControlSubjects as S,
  ListDeploymentRunsParamsSchema,
  type Actor,
  type ListDeploymentRunsParams,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { ZodQuery } from '../http/zod-params.js';

@Controller('v1/deployment_runs')
export class DeploymentRunsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  list(
    @CurrentActor() actor: Actor,
    @ZodQuery(ListDeploymentRunsParamsSchema) query: ListDeploymentRunsParams,
  ) {
    return this.rpc.request(S.listDeploymentRuns, { actor, query });
  }

  @Get(':id')
  get(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.request(S.getDeploymentRun, { actor, id });
  }
}
