import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ControlSubjects as S, SchedulerSubjects, type Actor } from '@agentry/contracts';
import {
  CreateDeploymentRequestSchema,
  ListDeploymentsParamsSchema,
  UpdateDeploymentRequestSchema,
} from '@agentry/contracts/v1';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { rpcRoutes } from '../http/rpc-routes.js';

@Controller('v1/deployments')
export class DeploymentsController extends rpcRoutes({
  create: { route: 'POST', subject: S.createDeployment, body: CreateDeploymentRequestSchema },
  list: { route: 'GET', subject: S.listDeployments, query: ListDeploymentsParamsSchema },
  get: { route: 'GET :id', subject: S.getDeployment },
  update: { route: 'POST :id', subject: S.updateDeployment, body: UpdateDeploymentRequestSchema },
  pause: { route: 'POST :id/pause', subject: S.pauseDeployment },
  unpause: { route: 'POST :id/unpause', subject: S.unpauseDeployment },
  archive: { route: 'POST :id/archive', subject: S.archiveDeployment },
}) {
  /** Runs the deployment now; the reply is the run record (a failed run still answers 200, as CMA does). */
  @Post(':id/run')
  @HttpCode(200)
  run(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.request(SchedulerSubjects.runDeployment, { actor, id, trigger: 'manual' });
  }
}
