import { Controller } from '@nestjs/common';
import { ControlSubjects as S } from '@agentry/contracts';
import { ListDeploymentRunsParamsSchema } from '@agentry/contracts/v1';
import { rpcRoutes } from '../http/rpc-routes.js';

@Controller('v1/deployment_runs')
export class DeploymentRunsController extends rpcRoutes({
  list: { route: 'GET', subject: S.listDeploymentRuns, query: ListDeploymentRunsParamsSchema },
  get: { route: 'GET :id', subject: S.getDeploymentRun },
}) {}
