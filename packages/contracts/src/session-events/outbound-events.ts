import { z } from 'zod';
import { AgentContentBlockSchema, ToolResultContentBlockSchema } from './content-blocks.js';
import { SessionErrorObjectSchema } from './session-error.js';
import { RefusalStopDetailsSchema, StopReasonSchema } from './stop-reason.js';

/** Payloads of the events the platform emits (everything but id, processed_at and created_at). */

const JsonObjectSchema = z.record(z.string(), z.unknown());
const ThreadRef = { session_thread_id: z.string().nullable().optional() };

const EvaluatedPermissionSchema = z.enum(['allow', 'ask', 'deny']);

/** Which policy produced a tool verdict; under `auto` it also says why. */
const ToolEvaluationSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('always_allow') }),
  z.object({ type: z.literal('always_ask') }),
  z.object({
    type: z.literal('auto'),
    evaluated_permission: z.discriminatedUnion('type', [
      z.object({ type: z.literal('allow') }),
      z.object({ type: z.literal('ask'), reason_code: z.string() }),
      z.object({ type: z.literal('deny'), reason_code: z.string() }),
    ]),
  }),
]);

/** What a built-in and an MCP tool call carry alike, after the call's own fields. */
const ToolCallFields = {
  name: z.string(),
  input: JsonObjectSchema,
  evaluated_permission: EvaluatedPermissionSchema.optional(),
  evaluation: ToolEvaluationSchema.optional(),
  ...ThreadRef,
};
/** What a built-in and an MCP tool result carry alike, after the id of the call they answer. */
const ToolResultFields = {
  content: z.array(ToolResultContentBlockSchema).optional(),
  is_error: z.boolean().nullable().optional(),
};

export const AgentMessagePayloadSchema = z.object({
  type: z.literal('agent.message'),
  content: z.array(AgentContentBlockSchema),
});
export const AgentThinkingPayloadSchema = z.object({ type: z.literal('agent.thinking') });

export const AgentToolUsePayloadSchema = z.object({
  type: z.literal('agent.tool_use'),
  ...ToolCallFields,
});
export const AgentToolResultPayloadSchema = z.object({
  type: z.literal('agent.tool_result'),
  tool_use_id: z.string(),
  ...ToolResultFields,
});
export const AgentMcpToolUsePayloadSchema = z.object({
  type: z.literal('agent.mcp_tool_use'),
  mcp_server_name: z.string(),
  ...ToolCallFields,
});
export const AgentMcpToolResultPayloadSchema = z.object({
  type: z.literal('agent.mcp_tool_result'),
  mcp_tool_use_id: z.string(),
  ...ToolResultFields,
});
export const AgentCustomToolUsePayloadSchema = z.object({
  type: z.literal('agent.custom_tool_use'),
  name: z.string(),
  input: JsonObjectSchema,
  ...ThreadRef,
});
/** An MCP server asks the user to act at a link before it finishes the call `mcp_tool_use_id` (URL mode). */
export const AgentMcpElicitationPayloadSchema = z.object({
  type: z.literal('agent.mcp_elicitation'),
  mcp_server_name: z.string(),
  mcp_tool_use_id: z.string(),
  request: z.object({
    type: z.literal('url'),
    message: z.string(),
    /** Only the caller that created the session reads the link; every other caller gets null. */
    url: z.string().nullable(),
    /** Agentry: true when the link was withheld from this caller (the stored event keeps it). */
    url_redacted: z.boolean().optional(),
  }),
  session_thread_id: z.string().nullable(),
});
export const AgentThreadContextCompactedPayloadSchema = z.object({
  type: z.literal('agent.thread_context_compacted'),
});

export const SessionStatusRunningPayloadSchema = z.object({ type: z.literal('session.status_running') });
export const SessionStatusIdlePayloadSchema = z.object({
  type: z.literal('session.status_idle'),
  stop_reason: StopReasonSchema,
  stop_details: RefusalStopDetailsSchema.nullable().optional(),
});
export const SessionStatusTerminatedPayloadSchema = z.object({
  type: z.literal('session.status_terminated'),
});
export const SessionStatusRescheduledPayloadSchema = z.object({
  type: z.literal('session.status_rescheduled'),
});
export const SessionErrorPayloadSchema = z.object({
  type: z.literal('session.error'),
  error: SessionErrorObjectSchema,
});

export const MonetaryAmountSchema = z.object({ amount: z.string(), currency: z.literal('USD') });
export type MonetaryAmount = z.infer<typeof MonetaryAmountSchema>;

export const UsageSnapshotSchema = z.object({
  input_tokens: z.number().int().nonnegative().optional(),
  output_tokens: z.number().int().nonnegative().optional(),
  cache_read_input_tokens: z.number().int().nonnegative().optional(),
  cache_creation: z
    .object({
      ephemeral_1h_input_tokens: z.number().int().nonnegative().optional(),
      ephemeral_5m_input_tokens: z.number().int().nonnegative().optional(),
    })
    .optional(),
  list_cost: MonetaryAmountSchema.nullable().optional(),
  server_tool_use: z
    .object({
      web_fetch_requests: z.number().int().nonnegative().optional(),
      web_search_requests: z.number().int().nonnegative().optional(),
    })
    .nullable()
    .optional(),
  active_seconds: z.number().nonnegative().optional(),
});

export const BudgetLimitSchema = z.strictObject({
  type: z.literal('limit'),
  max_list_cost: z.strictObject({
    amount: z
      .string()
      .regex(/^\d+(\.\d{1,6})?$/, 'must be a decimal USD amount with at most six decimals, such as "5.00"'),
    currency: z.literal('USD'),
  }),
});
export type BudgetLimit = z.infer<typeof BudgetLimitSchema>;

export const SessionUsagePayloadSchema = z.object({
  type: z.literal('session.usage'),
  usage: UsageSnapshotSchema,
  budget: BudgetLimitSchema.nullable().optional(),
});

/**
 * Agentry extension: the session went back to a checkpoint. The log stays append-only; the model's context
 * from here on is the log up to `to_seq` followed by what comes after this event.
 */
export const SessionRolledBackPayloadSchema = z.object({
  type: z.literal('session.rolled_back'),
  checkpoint_id: z.string(),
  to_event_id: z.string(),
  to_seq: z.number().int(),
});

export const ModelUsageSchema = z.object({
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  cache_creation_input_tokens: z.number().int().nonnegative(),
  cache_read_input_tokens: z.number().int().nonnegative(),
  speed: z.enum(['standard', 'fast']).nullable().optional(),
});
export type ModelUsage = z.infer<typeof ModelUsageSchema>;

export const SpanModelRequestStartPayloadSchema = z.object({ type: z.literal('span.model_request_start') });
export const SpanModelRequestEndPayloadSchema = z.object({
  type: z.literal('span.model_request_end'),
  model_request_start_id: z.string(),
  is_error: z.boolean().nullable(),
  model_usage: ModelUsageSchema,
});
