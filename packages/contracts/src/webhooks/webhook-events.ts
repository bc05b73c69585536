import { z } from 'zod';

/**
 * The webhook event types an endpoint can subscribe to, named as CMA names them (`BetaWebhookEvent` of
 * the official SDK). Webhook names differ from stream names: `session.status_idled`, not `status_idle`.
 */
const WEBHOOK_EVENT_TYPES = [
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
type WebhookEventData = {
  type: WebhookEventType;
  /** The resource the event is about. */
  id: string;
  /** The tenant. */
  organization_id: string;
  /** The namespace. */
  workspace_id: string;
  session_thread_id?: string;
  vault_id?: string;
};

/** The body of every delivery; `id` is also the `webhook-id` header and stays the same on every attempt. */
export type WebhookEvent = {
  id: string;
  type: 'event';
  created_at: string;
  data: WebhookEventData;
};
