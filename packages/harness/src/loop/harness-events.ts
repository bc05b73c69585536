import type { ErrorBody } from '@agentry/contracts';
import type { ChatMessage, ContentBlock } from '../model/model-port.js';

/** Permission the harness evaluated for a tool call before running it. */
export type EvaluatedPermission = 'allow' | 'ask' | 'deny';

/** Token usage in the platform's wire spelling. */
export interface UsageTotals {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

type TextContent = { type: 'text'; text: string };

interface Persisted {
  /** Stable event id (`sevt_…`): the caller dedupes on it. */
  id: string;
  /** ISO timestamp from the clock port. */
  created_at: string;
}

type AgentMessageEvent = Persisted & { type: 'agent.message'; content: TextContent[] };
type AgentThinkingEvent = Persisted & { type: 'agent.thinking'; content: TextContent[] };
type AgentToolUseEvent = Persisted & {
  type: 'agent.tool_use';
  name: string;
  input: Record<string, unknown>;
  evaluated_permission: EvaluatedPermission;
};
type AgentToolResultEvent = Persisted & {
  type: 'agent.tool_result';
  tool_use_id: string;
  content: ContentBlock[];
  is_error: boolean;
};
type AgentMcpToolUseEvent = Persisted & {
  type: 'agent.mcp_tool_use';
  name: string;
  server_name: string;
  input: Record<string, unknown>;
  evaluated_permission: EvaluatedPermission;
};
type AgentMcpToolResultEvent = Persisted & {
  type: 'agent.mcp_tool_result';
  tool_use_id: string;
  server_name: string;
  content: ContentBlock[];
  is_error: boolean;
};
/** An MCP server waits for the user to act at a link; the call `tool_use_id` waits for their answer. */
type AgentMcpElicitationEvent = Persisted & {
  type: 'agent.mcp_elicitation';
  tool_use_id: string;
  server_name: string;
  message: string;
  url: string;
};
/** A call of a tool the client runs itself: the run waits for its `user.custom_tool_result`. */
type AgentCustomToolUseEvent = Persisted & {
  type: 'agent.custom_tool_use';
  name: string;
  input: Record<string, unknown>;
};
type ThreadContextCompactedEvent = Persisted & {
  type: 'agent.thread_context_compacted';
  summary: string;
  /** The conversation as compaction left it (the summary, then the recent messages kept verbatim): a turn rebuilds from here. */
  context: ChatMessage[];
};
type ModelRequestStartEvent = Persisted & { type: 'span.model_request_start'; model: string };
type ModelRequestEndEvent = Persisted & {
  type: 'span.model_request_end';
  model: string;
  model_request_start_id: string;
  usage: UsageTotals;
  is_error: boolean;
};

/** A retryable model failure the run waits out before trying again (CMA: `session.error` with `retrying`). */
type ModelRetryEvent = Persisted & {
  type: 'session.error';
  error: ErrorBody;
  /** 1-based number of the retry about to happen, and how long the run waits for it. */
  retry_attempt: number;
  retry_in_ms: number;
};

/** Stream-only previews: never persisted, carry no id of their own. */
/** Preview text of the `agent.message` whose id is `event_id`. */
type TextDeltaEvent = { type: 'delta.text'; event_id: string; text: string };
/** Preview text of the `agent.thinking` whose id is `event_id`. */
type ThinkingDeltaEvent = { type: 'delta.thinking'; event_id: string; text: string };
type ToolInputDeltaEvent = { type: 'delta.tool_input'; tool_use_id: string; partial_json: string };

export type StopReason =
  | { type: 'end_turn' }
  | { type: 'requires_action'; tool_use_ids: string[] }
  | { type: 'max_iters' }
  | { type: 'budget_reached' }
  | { type: 'interrupted' }
  | { type: 'error'; error: ErrorBody };

/** Last event of every run: what the caller must persist and how the run stopped. */
export interface RunEndEvent {
  type: 'run.end';
  stop_reason: StopReason;
  /** The whole updated conversation (input conversation + everything this run added). */
  conversation: ChatMessage[];
  usage: UsageTotals;
  /** Latest plan written by plan_write during this run, if any. */
  plan?: { path: string; content: string };
  /** Offloaded tasks still running in this harness instance. */
  pending_tasks: string[];
}

export type PersistedHarnessEvent =
  | AgentMessageEvent
  | AgentThinkingEvent
  | AgentToolUseEvent
  | AgentToolResultEvent
  | AgentMcpToolUseEvent
  | AgentMcpToolResultEvent
  | AgentCustomToolUseEvent
  | AgentMcpElicitationEvent
  | ThreadContextCompactedEvent
  | ModelRequestStartEvent
  | ModelRequestEndEvent
  | ModelRetryEvent;

export type HarnessEvent =
  PersistedHarnessEvent | TextDeltaEvent | ThinkingDeltaEvent | ToolInputDeltaEvent | RunEndEvent;

/** True for events the caller stores in the session log (everything but previews and run.end). */
export function isPersistedEvent(event: HarnessEvent): event is PersistedHarnessEvent {
  return 'id' in event;
}
