import { Controller, UseFilters } from '@nestjs/common';
import {
  ControlSubjects as S,
  CreateWebhookEndpointRequestSchema,
  ListParamsSchema,
  RegenerateSigningSecretRequestSchema,
  UpdateWebhookEndpointRequestSchema,
  WebhookDeliverySubjects as D,
} from '@agentry/contracts';
import { rpcRoutes } from '../http/rpc-routes.js';
import { camelKeys } from './api-case.js';
import { ApiErrorFilter } from './api-error.filter.js';

/**
 * `/api/webhooks`: the same endpoints and delivery log over the same handlers, answered in camelCase.
 * Bodies keep the `/v1` field names, whose values are event type names either way.
 */
@Controller('api/webhooks')
@UseFilters(ApiErrorFilter)
export class ApiWebhooksController extends rpcRoutes({
  create: {
    route: 'POST',
    subject: S.createWebhook,
    body: CreateWebhookEndpointRequestSchema,
    reply: camelKeys,
  },
  list: { route: 'GET', subject: S.listWebhooks, query: ListParamsSchema, page: camelKeys },
  get: { route: 'GET :id', subject: S.getWebhook, reply: camelKeys },
  update: {
    route: 'PATCH :id',
    subject: S.updateWebhook,
    body: UpdateWebhookEndpointRequestSchema,
    reply: camelKeys,
  },
  remove: { route: 'DELETE :id', subject: S.deleteWebhook, status: 204 },
  rotateSecret: {
    route: 'POST :id/rotate-secret',
    subject: S.regenerateWebhookSecret,
    body: RegenerateSigningSecretRequestSchema,
    reply: camelKeys,
  },
  listDeliveries: {
    route: 'GET :id/deliveries',
    subject: D.listDeliveries,
    query: ListParamsSchema,
    page: camelKeys,
  },
  redeliver: {
    route: 'POST :id/deliveries/:deliveryId/redeliver',
    subject: D.redeliver,
    reply: camelKeys,
  },
}) {}
