import { z } from 'zod';
import { AgentContentBlockSchema } from '../session-events/content-blocks.js';
import { RefusalStopDetailsSchema, StopReasonSchema } from '../session-events/stop-reason.js';

/** Events of multi-agent sessions (CMA session threads): thread lifecycle and messages between threads. */

const ThreadStatusFields = { session_thread_id: z.string(), agent_name: z.string() };

export const SessionThreadCreatedPayloadSchema = z.object({
  type: z.literal('session.thread_created'),
  ...ThreadStatusFields,
  workflow_run_id: z.string().nullable(),
});
export const SessionThreadStatusRunningPayloadSchema = z.object({
  type: z.literal('session.thread_status_running'),
  ...ThreadStatusFields,
});
export const SessionThreadStatusIdlePayloadSchema = z.object({
  type: z.literal('session.thread_status_idle'),
  ...ThreadStatusFields,
  stop_reason: StopReasonSchema,
  stop_details: RefusalStopDetailsSchema.nullable(),
});
export const SessionThreadStatusRescheduledPayloadSchema = z.object({
  type: z.literal('session.thread_status_rescheduled'),
  ...ThreadStatusFields,
});
export const SessionThreadStatusTerminatedPayloadSchema = z.object({
  type: z.literal('session.thread_status_terminated'),
  ...ThreadStatusFields,
});

export const AgentThreadMessageSentPayloadSchema = z.object({
  type: z.literal('agent.thread_message_sent'),
  content: z.array(AgentContentBlockSchema),
  to_session_thread_id: z.string(),
  to_agent_name: z.string().nullable().optional(),
});
/** Also the input of a thread's turn: it waits in the receiving thread's inbox like a user message. */
export const AgentThreadMessageReceivedPayloadSchema = z.object({
  type: z.literal('agent.thread_message_received'),
  content: z.array(AgentContentBlockSchema),
  from_session_thread_id: z.string(),
  from_agent_name: z.string().nullable().optional(),
});
