import { ListParamsSchema } from '@agentry/contracts';
import {
  ApiCreateDeploymentRequestSchema,
  ApiDeploymentRunSchema,
  ApiDeploymentSchema,
  ApiUpdateDeploymentRequestSchema,
} from '@agentry/contracts/api';
import { RunBodySchema } from '../../api/api-deployments.controller.js';
import type { RouteEntry } from '../route-entry.js';

export const API_DEPLOYMENTS_ROUTES: RouteEntry[] = [
  {
    method: 'get',
    path: '/api/deployments',
    operationId: 'apiDeployments_list',
    summary: 'List deployments',
    query: ListParamsSchema,
    reply: ApiDeploymentSchema,
    replyList: true,
  },
  {
    method: 'post',
    path: '/api/deployments',
    operationId: 'apiDeployments_create',
    summary: 'Create a deployment',
    body: ApiCreateDeploymentRequestSchema,
    reply: ApiDeploymentSchema,
  },
  {
    method: 'get',
    path: '/api/deployments/{id}',
    operationId: 'apiDeployments_get',
    summary: 'Get a deployment',
    reply: ApiDeploymentSchema,
  },
  {
    method: 'patch',
    path: '/api/deployments/{id}',
    operationId: 'apiDeployments_update',
    summary: 'Update a deployment',
    body: ApiUpdateDeploymentRequestSchema,
    reply: ApiDeploymentSchema,
  },
  {
    method: 'delete',
    path: '/api/deployments/{id}',
    operationId: 'apiDeployments_remove',
    summary: 'Delete a deployment',
    status: 204,
  },
  {
    method: 'post',
    path: '/api/deployments/{id}/archive',
    operationId: 'apiDeployments_archive',
    summary: 'Archive a deployment',
    reply: ApiDeploymentSchema,
  },
  {
    method: 'post',
    path: '/api/deployments/{id}/pause',
    operationId: 'apiDeployments_pause',
    summary: 'Pause a deployment',
    reply: ApiDeploymentSchema,
  },
  {
    method: 'post',
    path: '/api/deployments/{id}/run',
    operationId: 'apiDeployments_run',
    summary: 'Run a deployment now',
    body: RunBodySchema,
    reply: ApiDeploymentRunSchema,
  },
  {
    method: 'post',
    path: '/api/deployments/{id}/unpause',
    operationId: 'apiDeployments_unpause',
    summary: 'Unpause a deployment',
    reply: ApiDeploymentSchema,
  },
  {
    method: 'post',
    path: '/api/deployments/webhook/{token}',
    operationId: 'apiDeployments_webhook',
    summary: "Trigger a deployment's webhook",
    body: RunBodySchema,
    reply: ApiDeploymentRunSchema,
    auth: 'public',
  },
];
