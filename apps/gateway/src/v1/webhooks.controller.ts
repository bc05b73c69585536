import { Controller } from '@nestjs/common';
import { ControlSubjects as S, WebhookDeliverySubjects as D } from '@agentry/contracts';
import {
  CreateWebhookEndpointRequestSchema,
  ListParamsSchema,
  RegenerateSigningSecretRequestSchema,
  UpdateWebhookEndpointRequestSchema,
} from '@agentry/contracts/v1';
import { rpcRoutes } from '../http/rpc-routes.js';

/**
 * Webhook endpoints (an Agentry extension: CMA configures them in its console), shaped as the official
 * SDK's webhook endpoints, with each endpoint's delivery log and manual redelivery.
 */
@Controller('v1/webhooks')
export class WebhooksController extends rpcRoutes({
  create: { route: 'POST', subject: S.createWebhook, body: CreateWebhookEndpointRequestSchema },
  list: { route: 'GET', subject: S.listWebhooks, query: ListParamsSchema },
  get: { route: 'GET :id', subject: S.getWebhook },
  update: { route: 'POST :id', subject: S.updateWebhook, body: UpdateWebhookEndpointRequestSchema },
  delete: { route: 'DELETE :id', subject: S.deleteWebhook },
  regenerateSigningSecret: {
    route: 'POST :id/regenerate_signing_secret',
    subject: S.regenerateWebhookSecret,
    body: RegenerateSigningSecretRequestSchema,
  },
  listDeliveries: { route: 'GET :id/deliveries', subject: D.listDeliveries, query: ListParamsSchema },
  getDelivery: { route: 'GET :id/deliveries/:deliveryId', subject: D.getDelivery },
  redeliver: { route: 'POST :id/deliveries/:deliveryId/redeliver', subject: D.redeliver },
}) {}
