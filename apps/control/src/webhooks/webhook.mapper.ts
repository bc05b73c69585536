import { WebhookEventTypeSchema, type WebhookEndpoint } from '@agentry/contracts';
import type { Webhook } from '@agentry/db';

export function toWebhookEndpointDto(row: Webhook): WebhookEndpoint {
  return {
    type: 'webhook_endpoint',
    id: row.id,
    url: row.url,
    name: row.name,
    description: row.description ?? '',
    // Types a later version no longer knows are left out rather than failing the read.
    enabled_events: row.eventTypes.flatMap((type) => {
      const parsed = WebhookEventTypeSchema.safeParse(type);
      return parsed.success ? [parsed.data] : [];
    }),
    session_id: row.sessionId,
    state: row.enabled ? 'enabled' : 'disabled',
    disabled_reason: row.disabledReason,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
