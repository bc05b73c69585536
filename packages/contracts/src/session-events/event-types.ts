/** Events a client may send (`POST /v1/sessions/{id}/events`). */
export const INBOUND_EVENT_TYPES = [
  'user.message',
  'user.interrupt',
  'user.tool_confirmation',
  'user.tool_result',
  'user.custom_tool_result',
  'user.define_outcome',
  'system.message',
  'user.mcp_elicitation_response',
] as const;
export type InboundEventType = (typeof INBOUND_EVENT_TYPES)[number];

/** Events the platform emits; persisted and streamed. */
export const OUTBOUND_EVENT_TYPES = [
  'agent.message',
  'agent.thinking',
  'agent.tool_use',
  'agent.tool_result',
  'agent.mcp_tool_use',
  'agent.mcp_tool_result',
  'agent.custom_tool_use',
  'agent.mcp_elicitation',
  'agent.thread_context_compacted',
  'session.status_running',
  'session.status_idle',
  'session.status_terminated',
  'session.status_rescheduled',
  'session.error',
  'session.usage',
  'session.rolled_back',
  'span.model_request_start',
  'span.model_request_end',
  'span.outcome_evaluation_start',
  'span.outcome_evaluation_ongoing',
  'span.outcome_evaluation_end',
  'session.thread_created',
  'session.thread_status_running',
  'session.thread_status_idle',
  'session.thread_status_rescheduled',
  'session.thread_status_terminated',
  'agent.thread_message_sent',
  'agent.thread_message_received',
  'workflow_run.created',
  'workflow_run.status_running',
  'workflow_run.status_idle',
  'workflow_run.status_ended',
  'workflow_run.error',
  'workflow_run.phase_started',
  'workflow_run.phase_ended',
] as const;

const INBOUND = new Set<string>(INBOUND_EVENT_TYPES);

export function isInboundEventType(type: string): type is InboundEventType {
  return INBOUND.has(type);
}
