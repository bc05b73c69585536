import { z } from 'zod';
import {
  SystemMessagePayloadSchema,
  UserCustomToolResultPayloadSchema,
  UserDefineOutcomePayloadSchema,
  UserInterruptPayloadSchema,
  UserMessagePayloadSchema,
  UserToolConfirmationPayloadSchema,
  UserMcpElicitationResponsePayloadSchema,
  UserToolResultPayloadSchema,
} from './inbound-payloads.js';
import {
  AgentCustomToolUsePayloadSchema,
  AgentMcpElicitationPayloadSchema,
  AgentMcpToolResultPayloadSchema,
  AgentMcpToolUsePayloadSchema,
  AgentMessagePayloadSchema,
  AgentThinkingPayloadSchema,
  AgentThreadContextCompactedPayloadSchema,
  AgentToolResultPayloadSchema,
  AgentToolUsePayloadSchema,
  SessionErrorPayloadSchema,
  SessionStatusIdlePayloadSchema,
  SessionStatusRescheduledPayloadSchema,
  SessionStatusRunningPayloadSchema,
  SessionStatusTerminatedPayloadSchema,
  SessionRolledBackPayloadSchema,
  SessionUsagePayloadSchema,
  SpanModelRequestEndPayloadSchema,
  SpanModelRequestStartPayloadSchema,
} from './outbound-events.js';
import {
  SpanOutcomeEvaluationEndPayloadSchema,
  SpanOutcomeEvaluationOngoingPayloadSchema,
  SpanOutcomeEvaluationStartPayloadSchema,
} from './outcome-events.js';
import {
  AgentThreadMessageReceivedPayloadSchema,
  AgentThreadMessageSentPayloadSchema,
  SessionThreadCreatedPayloadSchema,
  SessionThreadStatusIdlePayloadSchema,
  SessionThreadStatusRescheduledPayloadSchema,
  SessionThreadStatusRunningPayloadSchema,
  SessionThreadStatusTerminatedPayloadSchema,
} from '../sessions/thread-events.js';
import {
  WorkflowRunCreatedPayloadSchema,
  WorkflowRunErrorPayloadSchema,
  WorkflowRunPhaseEndedPayloadSchema,
  WorkflowRunPhaseStartedPayloadSchema,
  WorkflowRunStatusEndedPayloadSchema,
  WorkflowRunStatusIdlePayloadSchema,
  WorkflowRunStatusRunningPayloadSchema,
} from '../sessions/workflow-events.js';

/** The `payload` column of an event row: `type` plus the event's own fields. */
export const EventPayloadSchema = z.discriminatedUnion('type', [
  UserMessagePayloadSchema,
  UserInterruptPayloadSchema,
  UserToolConfirmationPayloadSchema,
  UserToolResultPayloadSchema,
  UserCustomToolResultPayloadSchema,
  UserDefineOutcomePayloadSchema,
  SystemMessagePayloadSchema,
  UserMcpElicitationResponsePayloadSchema,
  AgentMessagePayloadSchema,
  AgentThinkingPayloadSchema,
  AgentToolUsePayloadSchema,
  AgentToolResultPayloadSchema,
  AgentMcpToolUsePayloadSchema,
  AgentMcpToolResultPayloadSchema,
  AgentCustomToolUsePayloadSchema,
  AgentMcpElicitationPayloadSchema,
  AgentThreadContextCompactedPayloadSchema,
  SessionStatusRunningPayloadSchema,
  SessionStatusIdlePayloadSchema,
  SessionStatusTerminatedPayloadSchema,
  SessionStatusRescheduledPayloadSchema,
  SessionErrorPayloadSchema,
  SessionUsagePayloadSchema,
  SessionRolledBackPayloadSchema,
  SpanModelRequestStartPayloadSchema,
  SpanModelRequestEndPayloadSchema,
  SpanOutcomeEvaluationStartPayloadSchema,
  SpanOutcomeEvaluationOngoingPayloadSchema,
  SpanOutcomeEvaluationEndPayloadSchema,
  SessionThreadCreatedPayloadSchema,
  SessionThreadStatusRunningPayloadSchema,
  SessionThreadStatusIdlePayloadSchema,
  SessionThreadStatusRescheduledPayloadSchema,
  SessionThreadStatusTerminatedPayloadSchema,
  AgentThreadMessageSentPayloadSchema,
  AgentThreadMessageReceivedPayloadSchema,
  WorkflowRunCreatedPayloadSchema,
  WorkflowRunStatusRunningPayloadSchema,
  WorkflowRunStatusIdlePayloadSchema,
  WorkflowRunStatusEndedPayloadSchema,
  WorkflowRunErrorPayloadSchema,
  WorkflowRunPhaseStartedPayloadSchema,
  WorkflowRunPhaseEndedPayloadSchema,
]);
export type EventPayload = z.infer<typeof EventPayloadSchema>;

/** Fields every persisted event carries next to its payload (CMA flattens them into one object). */
const EventEnvelopeSchema = z.object({
  id: z.string(),
  /** Null while an inbound event still waits in the inbox. */
  processed_at: z.iso.datetime({ offset: true }).nullable(),
  created_at: z.iso.datetime({ offset: true }),
});
export type EventEnvelope = z.infer<typeof EventEnvelopeSchema>;

/** A persisted event as `/v1` returns it: envelope and payload fields side by side. */
export const SessionEventSchema = z.intersection(EventEnvelopeSchema, EventPayloadSchema);
export type SessionEvent = EventEnvelope & EventPayload;

/** Flattens an event row into its wire shape. */
export function toSessionEvent(envelope: EventEnvelope, payload: EventPayload): SessionEvent {
  return {
    ...payload,
    id: envelope.id,
    processed_at: envelope.processed_at,
    created_at: envelope.created_at,
  };
}

/** Splits a wire event into envelope and payload (the inverse of `toSessionEvent`). */
export function splitSessionEvent(event: SessionEvent): { envelope: EventEnvelope; payload: EventPayload } {
  const { id, processed_at, created_at, ...payload } = event;
  return { envelope: { id, processed_at, created_at }, payload };
}
