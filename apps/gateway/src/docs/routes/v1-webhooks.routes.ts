import { ControlSubjects, WebhookDeliverySubjects } from '@agentry/contracts';
import {
  CreateWebhookEndpointRequestSchema,
  ListParamsSchema,
  NewWebhookEndpointSchema,
  RegenerateSigningSecretRequestSchema,
  UpdateWebhookEndpointRequestSchema,
  WebhookDeliverySchema,
  WebhookEndpointDeletedSchema,
  WebhookEndpointSchema,
  WebhookSigningSecretSchema,
} from '@agentry/contracts/v1';
import type { RouteEntry } from '../route-entry.js';

export const V1_WEBHOOKS_ROUTES: RouteEntry[] = [
  {
    method: 'get',
    path: '/v1/webhooks',
    operationId: 'webhooks_list',
    summary: 'List webhook endpoints',
    query: ListParamsSchema,
    reply: ControlSubjects.listWebhooks.response,
  },
  {
    method: 'post',
    path: '/v1/webhooks',
    operationId: 'webhooks_create',
    summary: 'Create a webhook endpoint (its signing secret is shown only here)',
    body: CreateWebhookEndpointRequestSchema,
    reply: NewWebhookEndpointSchema,
  },
  {
    method: 'get',
    path: '/v1/webhooks/{id}',
    operationId: 'webhooks_get',
    summary: 'Get a webhook endpoint',
    reply: WebhookEndpointSchema,
  },
  {
    method: 'post',
    path: '/v1/webhooks/{id}',
    operationId: 'webhooks_update',
    summary: 'Update a webhook endpoint',
    body: UpdateWebhookEndpointRequestSchema,
    reply: WebhookEndpointSchema,
  },
  {
    method: 'delete',
    path: '/v1/webhooks/{id}',
    operationId: 'webhooks_delete',
    summary: 'Delete a webhook endpoint and its delivery log',
    reply: WebhookEndpointDeletedSchema,
  },
  {
    method: 'post',
    path: '/v1/webhooks/{id}/regenerate_signing_secret',
    operationId: 'webhooks_regenerateSigningSecret',
    summary: 'Rotate the signing secret; the old one keeps signing during the grace period',
    body: RegenerateSigningSecretRequestSchema,
    reply: WebhookSigningSecretSchema,
  },
  {
    method: 'get',
    path: '/v1/webhooks/{id}/deliveries',
    operationId: 'webhookDeliveries_list',
    summary: "List an endpoint's deliveries, newest first, with every attempt",
    query: ListParamsSchema,
    reply: WebhookDeliverySubjects.listDeliveries.response,
  },
  {
    method: 'get',
    path: '/v1/webhooks/{id}/deliveries/{deliveryId}',
    operationId: 'webhookDeliveries_get',
    summary: 'Get a delivery with every attempt',
    reply: WebhookDeliverySchema,
  },
  {
    method: 'post',
    path: '/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver',
    operationId: 'webhookDeliveries_redeliver',
    summary: 'Send a settled delivery again',
    reply: WebhookDeliverySchema,
  },
];
