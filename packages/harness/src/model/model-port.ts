/**
 * Provider-neutral model port. Adapters (OpenAI-compatible, Anthropic Messages, scripted) translate
 * to and from this shape; the harness never sees a provider SDK type.
 */
export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; mediaType: string; data: string }
  | { type: 'thinking'; text: string; signature?: string };

export interface ToolCall {
  id: string;
  name: string;
  /** Parsed JSON arguments. */
  input: Record<string, unknown>;
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: ContentBlock[] }
  | { role: 'assistant'; content: ContentBlock[]; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; toolName: string; content: ContentBlock[]; isError?: boolean };

export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema (object) of the arguments. */
  inputSchema: Record<string, unknown>;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens?: number;
  cacheCreationInputTokens?: number;
}

export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'refusal' | 'stop_sequence';

export interface ModelRequest {
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  maxTokens?: number;
  temperature?: number;
  /** Free-form provider options (reasoning effort, etc.). */
  options?: Record<string, unknown>;
}

/** Streamed pieces of one model response; the final `done` carries the complete message. */
export type ModelStreamEvent =
  | { type: 'text_delta'; text: string }
  | { type: 'thinking_delta'; text: string }
  | { type: 'tool_call_start'; id: string; name: string }
  | { type: 'tool_call_delta'; id: string; argumentsDelta: string }
  | {
      type: 'done';
      message: Extract<ChatMessage, { role: 'assistant' }>;
      stopReason: StopReason;
      usage: Usage;
    };

export interface ModelPort {
  /** e.g. "openai/gpt-4.1", "anthropic/claude-sonnet-4-5", "scripted". */
  readonly id: string;
  /** Context window in tokens, used by compaction. */
  readonly contextWindow: number;
  /**
   * Streams one response. Throws AppError with MODEL_OVERLOADED / MODEL_RATE_LIMITED (retryable),
   * MODEL_REQUEST_FAILED, CONTEXT_OVERFLOW, ABORTED (signal), UNAUTHENTICATED.
   */
  stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<ModelStreamEvent>;
}
