import { z } from 'zod';
import { IsoDateTimeSchema } from '../common/common.js';
import { WebhookEventTypeSchema } from './webhook-events.js';

const UrlSchema = z
  .string()
  .max(2048, 'url may be at most 2048 characters')
  .refine((value) => URL.canParse(value), { message: 'url must be an absolute URL', abort: true })
  .refine((value) => /^https?:$/.test(new URL(value).protocol), 'url must be an http or https URL');
const NameSchema = z.string().max(255, 'name may be at most 255 characters');
const DescriptionSchema = z.string().max(2048, 'description may be at most 2048 characters');
const EnabledEventsSchema = z.array(WebhookEventTypeSchema).max(100);

/**
 * An endpoint that receives signed deliveries of the events it subscribes to, shaped as the official
 * SDK's webhook endpoint (`enabled_events`, `state`, `disabled_reason`). `session_id` (an Agentry
 * extension) narrows it to one session's events.
 */
export const WebhookEndpointSchema = z.object({
  type: z.literal('webhook_endpoint'),
  id: z.string(),
  url: z.string(),
  name: z.string(),
  description: z.string(),
  enabled_events: z.array(WebhookEventTypeSchema),
  session_id: z.string().nullable(),
  state: z.enum(['enabled', 'disabled']),
  disabled_reason: z.string(),
  created_at: IsoDateTimeSchema,
  updated_at: IsoDateTimeSchema,
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

/** The create reply: the only time the signing secret (`whsec_…`) is shown. */
export const NewWebhookEndpointSchema = WebhookEndpointSchema.extend({ signing_secret: z.string() });
export type NewWebhookEndpoint = z.infer<typeof NewWebhookEndpointSchema>;

export const CreateWebhookEndpointRequestSchema = z.strictObject({
  url: UrlSchema,
  enabled_events: EnabledEventsSchema.min(1, 'enabled_events must list at least one event type'),
  name: NameSchema.optional(),
  description: DescriptionSchema.optional(),
  session_id: z.string().min(1).optional(),
});
export type CreateWebhookEndpointRequest = z.infer<typeof CreateWebhookEndpointRequestSchema>;

/** Only the fields sent change; `state: enabled` resumes deliveries and clears `disabled_reason`. */
export const UpdateWebhookEndpointRequestSchema = z.strictObject({
  url: UrlSchema.optional(),
  enabled_events: EnabledEventsSchema.optional(),
  name: NameSchema.optional(),
  description: DescriptionSchema.optional(),
  state: z.enum(['enabled', 'disabled']).optional(),
});
export type UpdateWebhookEndpointRequest = z.infer<typeof UpdateWebhookEndpointRequestSchema>;

/** `grace_period_seconds`: how long the old secret keeps signing next to the new one (0: it stops at once). */
export const RegenerateSigningSecretRequestSchema = z.strictObject({
  grace_period_seconds: z
    .number()
    .int()
    .min(0)
    .max(7 * 86_400)
    .optional(),
});
export type RegenerateSigningSecretRequest = z.infer<typeof RegenerateSigningSecretRequestSchema>;

export const WebhookSigningSecretSchema = z.object({
  signing_secret: z.string(),
  /** When the previous secret stops signing deliveries; null when it stopped at once. */
  previous_secret_expires_at: IsoDateTimeSchema.nullable(),
});
export type WebhookSigningSecret = z.infer<typeof WebhookSigningSecretSchema>;

export const WebhookEndpointDeletedSchema = z.object({
  id: z.string(),
  type: z.literal('webhook_endpoint_deleted'),
});
export type WebhookEndpointDeleted = z.infer<typeof WebhookEndpointDeletedSchema>;

/** One HTTP attempt of a delivery. */
const WebhookDeliveryAttemptSchema = z.object({
  attempt: z.number().int(),
  response_status_code: z.number().int().nullable(),
  latency_ms: z.number().int(),
  error: z.string().nullable(),
  created_at: IsoDateTimeSchema,
});

/** One event's delivery to one endpoint, with every attempt made so far. */
export const WebhookDeliverySchema = z.object({
  type: z.literal('webhook_delivery'),
  id: z.string(),
  webhook_id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  attempts: z.number().int(),
  response_status_code: z.number().int().nullable(),
  latency_ms: z.number().int().nullable(),
  last_error: z.string().nullable(),
  created_at: IsoDateTimeSchema,
  delivered_at: IsoDateTimeSchema.nullable(),
  attempt_log: z.array(WebhookDeliveryAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;
