import { ControlSubjects } from '@agentry/contracts';
import {
  CreateDeploymentRequestSchema,
  DeploymentRunSchema,
  DeploymentSchema,
  ListDeploymentsParamsSchema,
  UpdateDeploymentRequestSchema,
} from '@agentry/contracts/v1';
import type { RouteEntry } from '../route-entry.js';

export const V1_DEPLOYMENTS_ROUTES: RouteEntry[] = [
  {
    method: 'get',
    path: '/v1/deployments',
    operationId: 'deployments_list',
    summary: 'List deployments',
    query: ListDeploymentsParamsSchema,
    reply: ControlSubjects.listDeployments.response,
  },
  {
    method: 'post',
    path: '/v1/deployments',
    operationId: 'deployments_create',
    summary: 'Create a deployment',
    body: CreateDeploymentRequestSchema,
    reply: DeploymentSchema,
  },
  {
    method: 'get',
    path: '/v1/deployments/{id}',
    operationId: 'deployments_get',
    summary: 'Get a deployment',
    reply: DeploymentSchema,
  },
  {
    method: 'post',
    path: '/v1/deployments/{id}',
    operationId: 'deployments_update',
    summary: 'Update a deployment',
    body: UpdateDeploymentRequestSchema,
    reply: DeploymentSchema,
  },
  {
    method: 'post',
    path: '/v1/deployments/{id}/archive',
    operationId: 'deployments_archive',
    summary: 'Archive a deployment',
    reply: DeploymentSchema,
  },
  {
    method: 'post',
    path: '/v1/deployments/{id}/pause',
    operationId: 'deployments_pause',
    summary: 'Pause a deployment',
    reply: DeploymentSchema,
  },
  {
    method: 'post',
    path: '/v1/deployments/{id}/run',
    operationId: 'deployments_run',
    summary: 'Run a deployment now',
    reply: DeploymentRunSchema,
  },
  {
    method: 'post',
    path: '/v1/deployments/{id}/unpause',
    operationId: 'deployments_unpause',
    summary: 'Unpause a deployment',
    reply: DeploymentSchema,
  },
];
