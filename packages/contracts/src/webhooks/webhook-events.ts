import { z } from 'zod';

/**
 * The webhook event types an endpoint can subscribe to, named as CMA names them (`BetaWebhookEvent` of
 * the official SDK). Webhook names differ from stream names: `session.status_idled`, not `status_idle`.
 */
export const WEBHOOK_EVENT_TYPES = [
  'session.created',
  'session.pending',
  'session.running',
  'session.idled',
  'session.requires_action',
  'session.budget_reached',
  'session.archived',
  'session.deleted',
  'session.updated',
  'session.status_rescheduled',
  'session.status_run_started',
  'session.status_idled',
  'session.status_terminated',
  'session.thread_created',
  'session.thread_idled',
  'session.thread_terminated',
  'session.outcome_evaluation_ended',
  'agent.created',
  'agent.updated',
  'agent.archived',
  'agent.deleted',
  'environment.created',
  'environment.updated',
  'environment.archived',
  'environment.deleted',
  'deployment.created',
  'deployment.updated',
  'deployment.paused',
  'deployment.unpaused',
  'deployment.archived',
  'deployment.deleted',
  'deployment_run.started',
  'deployment_run.succeeded',
  'deployment_run.failed',
  'vault.created',
  'vault.archived',
  'vault.deleted',
  'vault_credential.created',
  'vault_credential.archived',
  'vault_credential.deleted',
  'vault_credential.refresh_failed',
  'memory_store.created',
  'memory_store.archived',
  'memory_store.deleted',
] as const;

export const WebhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES, {
  error: (issue) =>
    `must be one of the webhook event types (${WEBHOOK_EVENT_TYPES.join(', ')}); got ${JSON.stringify(issue.input)}`,
});
export type WebhookEventType = z.infer<typeof WebhookEventTypeSchema>;

/** What a webhook event is about: ids only, never the resource itself (CMA's thin payloads). */
export const WebhookEventDataSchema = z.object({
  type: WebhookEventTypeSchema,
  /** The resource the event is about. */
  id: z.string(),
  /** The tenant. */
  organization_id: z.string(),
  /** The namespace. */
  workspace_id: z.string(),
  session_thread_id: z.string().optional(),
  vault_id: z.string().optional(),
});
export type WebhookEventData = z.infer<typeof WebhookEventDataSchema>;

/** The body of every delivery; `id` is also the `webhook-id` header and stays the same on every attempt. */
export const WebhookEventSchema = z.object({
  id: z.string(),
  type: z.literal('event'),
  created_at: z.string(),
  data: WebhookEventDataSchema,
});
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;
