import type { WebhookDelivery } from '@agentry/contracts';
import type { DeliveryWithAttempts } from './webhook-deliveries.repository.js';

export function toWebhookDeliveryDto(row: DeliveryWithAttempts): WebhookDelivery {
  return {
    type: 'webhook_delivery',
    id: row.id,
    webhook_id: row.webhookId,
    event_id: row.eventId,
    event_type: row.eventType,
    status: row.status as WebhookDelivery['status'],
    attempts: row.attempts,
    response_status_code: row.lastStatusCode,
    latency_ms: row.lastLatencyMs,
    last_error: row.lastError,
    created_at: row.createdAt.toISOString(),
    delivered_at: row.deliveredAt?.toISOString() ?? null,
    attempt_log: row.attemptLog.map((attempt) => ({
      attempt: attempt.attempt,
      response_status_code: attempt.statusCode,
      latency_ms: attempt.latencyMs,
      error: attempt.error,
      created_at: attempt.createdAt.toISOString(),
    })),
  };
}
