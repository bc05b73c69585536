import {
  CreateWebhookEndpointRequestSchema,
  ListParamsSchema,
  RegenerateSigningSecretRequestSchema,
  UpdateWebhookEndpointRequestSchema,
} from '@agentry/contracts';
import type { RouteEntry } from '../route-entry.js';

export const API_WEBHOOKS_ROUTES: RouteEntry[] = [
  {
    method: 'get',
    path: '/api/webhooks',
    operationId: 'apiWebhooks_list',
    summary: 'List webhook endpoints',
    query: ListParamsSchema,
  },
  {
    method: 'post',
    path: '/api/webhooks',
    operationId: 'apiWebhooks_create',
    summary: 'Create a webhook endpoint',
    body: CreateWebhookEndpointRequestSchema,
  },
  {
    method: 'get',
    path: '/api/webhooks/{id}',
    operationId: 'apiWebhooks_get',
    summary: 'Get a webhook endpoint',
  },
  {
    method: 'patch',
    path: '/api/webhooks/{id}',
    operationId: 'apiWebhooks_update',
    summary: 'Update a webhook endpoint',
    body: UpdateWebhookEndpointRequestSchema,
  },
  {
    method: 'delete',
    path: '/api/webhooks/{id}',
    operationId: 'apiWebhooks_delete',
    summary: 'Delete a webhook endpoint',
    status: 204,
  },
  {
    method: 'post',
    path: '/api/webhooks/{id}/rotate-secret',
    operationId: 'apiWebhooks_rotateSecret',
    summary: 'Rotate the signing secret',
    body: RegenerateSigningSecretRequestSchema,
  },
  {
    method: 'get',
    path: '/api/webhooks/{id}/deliveries',
    operationId: 'apiWebhooks_listDeliveries',
    summary: "List an endpoint's deliveries",
    query: ListParamsSchema,
  },
  {
    method: 'post',
    path: '/api/webhooks/{id}/deliveries/{deliveryId}/redeliver',
    operationId: 'apiWebhooks_redeliver',
    summary: 'Send a settled delivery again',
  },
];
