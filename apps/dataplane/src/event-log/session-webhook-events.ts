import type { StoredEvent, WebhookEventJob, WebhookEventType } from '@agentry/contracts';

/**
 * The webhook events a committed session event stands for. Webhook names differ from stream names
 * (`session.status_idle` → `session.status_idled`); an idle that asks for action or ran out of budget
 * is also `session.requires_action` / `session.budget_reached`. The ids derive from the session event's,
 * so announcing the same event twice makes the same webhook events (the fan-out dedupes on them).
 */
export function sessionWebhookEvents(sessionId: string, stored: StoredEvent): WebhookEventJob[] {
  const event = stored.event;
  const base = (type: WebhookEventType, suffix = '') => ({
    v: 1 as const,
    eventId: `wevt_${event.id.replace(/^sevt_/, '')}${suffix}`,
    type,
    occurredAt: event.created_at,
    resourceId: sessionId,
    sessionId,
  });
  switch (event.type) {
    case 'session.status_running':
      return [base('session.status_run_started')];
    case 'session.status_rescheduled':
      return [base('session.status_rescheduled')];
    case 'session.status_terminated':
      return [base('session.status_terminated')];
    case 'span.outcome_evaluation_end':
      return [base('session.outcome_evaluation_ended')];
    case 'session.status_idle': {
      const stop = event.stop_reason.type;
      const also =
        stop === 'requires_action'
          ? [base('session.requires_action', '_2')]
          : stop === 'budget_reached'
            ? [base('session.budget_reached', '_2')]
            : [];
      return [base('session.status_idled'), ...also];
    }
    case 'session.thread_created':
      return [{ ...base('session.thread_created'), sessionThreadId: event.session_thread_id }];
    case 'session.thread_status_idle':
      return [{ ...base('session.thread_idled'), sessionThreadId: event.session_thread_id }];
    case 'session.thread_status_terminated':
      return [{ ...base('session.thread_terminated'), sessionThreadId: event.session_thread_id }];
    default:
      return [];
  }
}
