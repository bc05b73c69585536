import { ControlSubjects } from '@agentry/contracts';
import { DeploymentRunSchema, ListDeploymentRunsParamsSchema } from '@agentry/contracts/v1';
import type { RouteEntry } from '../route-entry.js';

export const V1_DEPLOYMENT_RUNS_ROUTES: RouteEntry[] = [
  {
    method: 'get',
    path: '/v1/deployment_runs',
    operationId: 'deploymentRuns_list',
    summary: 'List deployment runs',
    query: ListDeploymentRunsParamsSchema,
    reply: ControlSubjects.listDeploymentRuns.response,
  },
  {
    method: 'get',
    path: '/v1/deployment_runs/{id}',
    operationId: 'deploymentRuns_get',
    summary: 'Get a deployment run',
    reply: DeploymentRunSchema,
  },
];
