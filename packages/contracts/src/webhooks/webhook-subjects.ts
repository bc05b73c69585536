import { z } from 'zod';
import { ListParamsSchema } from '../common/common.js';
import { pageSchema } from '../common/paging.js';
import { entitySubjects } from '../nats/entity-subjects.js';
import { Scoped } from '../nats/request-fields.js';
import { rpcSubject, V1 } from '../nats/subject.js';
import {
  CreateWebhookEndpointRequestSchema,
  NewWebhookEndpointSchema,
  RegenerateSigningSecretRequestSchema,
  UpdateWebhookEndpointRequestSchema,
  WebhookDeliverySchema,
  WebhookEndpointDeletedSchema,
  WebhookEndpointSchema,
  WebhookSigningSecretSchema,
} from './webhooks.js';

const webhook = entitySubjects('control.webhook', WebhookEndpointSchema);
const ByEndpoint = { v: V1, tenantId: z.string().min(1), webhookId: z.string().min(1) };

/** Control's webhook endpoints: definitions, secrets and the health the scheduler reports. */
export const WebhookSubjects = {
  createWebhook: webhook.onScope('create', NewWebhookEndpointSchema, {
    body: CreateWebhookEndpointRequestSchema,
  }),
  getWebhook: webhook.get(),
  updateWebhook: webhook.update(UpdateWebhookEndpointRequestSchema),
  listWebhooks: webhook.list(ListParamsSchema),
  deleteWebhook: webhook.onItem('delete', WebhookEndpointDeletedSchema),
  regenerateWebhookSecret: webhook.onItem('regenerate_signing_secret', WebhookSigningSecretSchema, {
    body: RegenerateSigningSecretRequestSchema,
  }),
} as const;

/** Internal: what the scheduler asks control while delivering. Never reachable from the gateway. */
export const WebhookDeliverySupportSubjects = {
  /** The secrets a delivery is signed with now: the current one, then the previous one in its grace period. */
  signingSecrets: rpcSubject(
    'control.webhook.signing_secrets',
    z.object(ByEndpoint),
    z.object({ secrets: z.array(z.string()) }),
  ),
  /** A delivery exhausted its retries (`failed`) or went through (`succeeded`); enough failures disable. */
  recordOutcome: rpcSubject(
    'control.webhook.record_outcome',
    z.object({ ...ByEndpoint, outcome: z.enum(['succeeded', 'failed']) }),
    z.object({ disabled: z.boolean() }),
  ),
} as const;

const OneEndpoint = { ...Scoped, id: z.string().min(1) };

/** The scheduler's delivery log of an endpoint, and manual redelivery. */
export const WebhookDeliverySubjects = {
  listDeliveries: rpcSubject(
    'scheduler.webhook_delivery.list',
    z.object({ ...OneEndpoint, query: ListParamsSchema }),
    pageSchema(WebhookDeliverySchema),
  ),
  getDelivery: rpcSubject(
    'scheduler.webhook_delivery.get',
    z.object({ ...OneEndpoint, deliveryId: z.string().min(1) }),
    WebhookDeliverySchema,
  ),
  /** Sends the delivery again now, as a new round of attempts with the same event id. */
  redeliver: rpcSubject(
    'scheduler.webhook_delivery.redeliver',
    z.object({ ...OneEndpoint, deliveryId: z.string().min(1) }),
    WebhookDeliverySchema,
  ),
} as const;
