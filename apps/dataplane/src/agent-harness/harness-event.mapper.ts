import type { ErrorBody, SessionErrorType, StopReason } from '@agentry/contracts';
import type { ContentBlock, PersistedHarnessEvent, RunEndEvent } from '@agentry/harness';
import type { OutboundEvent } from '../sessions/turn-writer.js';

/** CMA content blocks from the harness's provider-neutral ones. */
function wireContent(blocks: ContentBlock[]): Array<Record<string, unknown>> {
  return blocks.flatMap((block): Array<Record<string, unknown>> => {
    if (block.type === 'text') return [{ type: 'text', text: block.text }];
    if (block.type === 'image')
      return [{ type: 'image', source: { type: 'base64', media_type: block.mediaType, data: block.data } }];
    return [];
  });
}

/** CMA names an MCP call by the server's own tool name; the model saw it as `mcp__{server}__{tool}`. */
function mcpToolNameOnServer(name: string, server: string): string {
  const prefix = `mcp__${server}__`;
  return name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

/** A harness event in the platform's event catalog shape (its id is kept: it is the dedupe key). */
export function toPlatformEvent(event: PersistedHarnessEvent): OutboundEvent {
  switch (event.type) {
    case 'agent.message':
      return { id: event.id, type: event.type, content: event.content };
    case 'agent.thinking':
      return { id: event.id, type: event.type };
    case 'agent.tool_use':
      return {
        id: event.id,
        type: event.type,
        name: event.name,
        input: event.input,
        evaluated_permission: event.evaluated_permission,
      };
    case 'agent.tool_result':
      return {
        id: event.id,
        type: event.type,
        tool_use_id: event.tool_use_id,
        content: wireContent(event.content),
        is_error: event.is_error,
      };
    case 'agent.mcp_tool_use':
      return {
        id: event.id,
        type: event.type,
        name: mcpToolNameOnServer(event.name, event.server_name),
        mcp_server_name: event.server_name,
        input: event.input,
        evaluated_permission: event.evaluated_permission,
      };
    case 'agent.mcp_tool_result':
      return {
        id: event.id,
        type: event.type,
        mcp_tool_use_id: event.tool_use_id,
        content: wireContent(event.content),
        is_error: event.is_error,
      };
    case 'agent.custom_tool_use':
      return { id: event.id, type: event.type, name: event.name, input: event.input };
    case 'agent.mcp_elicitation':
      return {
        id: event.id,
        type: event.type,
        mcp_server_name: event.server_name,
        mcp_tool_use_id: event.tool_use_id,
        request: { type: 'url', message: event.message, url: event.url },
        session_thread_id: null,
      };
    case 'agent.thread_context_compacted':
      // `summary` and `context` are extension fields: the conversation is rebuilt from them after compaction.
      return { id: event.id, type: event.type, summary: event.summary, context: event.context };
    case 'span.model_request_start':
      return { id: event.id, type: event.type, model: event.model };
    case 'span.model_request_end':
      return {
        id: event.id,
        type: event.type,
        model_request_start_id: event.model_request_start_id,
        is_error: event.is_error,
        model_usage: event.usage,
      };
    case 'session.error':
      return { ...sessionError(event.error, 'retrying'), id: event.id };
  }
}

/** How a run's end shows on the session: the idle stop reason, and a `session.error` when it failed. */
export function toStopReason(end: RunEndEvent): { stopReason: StopReason; error?: OutboundEvent } {
  const stop = end.stop_reason;
  switch (stop.type) {
    case 'end_turn':
    case 'max_iters':
    case 'interrupted': // CMA ends an interrupted turn as any other
      return { stopReason: { type: 'end_turn' } };
    case 'requires_action':
      return { stopReason: { type: 'requires_action', event_ids: stop.tool_use_ids } };
    case 'budget_reached':
      return { stopReason: { type: 'budget_reached' } };
    case 'error':
      // A retryable error that still ended the run used up its retries; any other one was never retried.
      return {
        stopReason: { type: 'retries_exhausted' },
        error: sessionError(stop.error, stop.error.retryable ? 'exhausted' : 'terminal'),
      };
  }
}

export function sessionError(error: ErrorBody, retry: 'retrying' | 'exhausted' | 'terminal'): OutboundEvent {
  return {
    type: 'session.error',
    error: { type: sessionErrorType(error), message: error.message, retry_status: { type: retry } },
  };
}

function sessionErrorType(error: ErrorBody): SessionErrorType {
  switch (error.code) {
    case 'MODEL_OVERLOADED':
      return 'model_overloaded_error';
    case 'MODEL_RATE_LIMITED':
      return 'model_rate_limited_error';
    case 'MODEL_REQUEST_FAILED':
    case 'CONTEXT_OVERFLOW':
    case 'UNAUTHENTICATED':
      return 'model_request_failed_error';
    case 'MCP_CONNECTION_FAILED':
      return 'mcp_connection_failed_error';
    default:
      return 'unknown_error';
  }
}
