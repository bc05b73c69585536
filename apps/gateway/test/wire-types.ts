/** What the gateway's replies look like, as far as the end-to-end tests read them. */

/** A created resource: the reply of a `POST` that makes one, read for its id. */
export interface Created {
  id: string;
}

/** A page of a `/v1` list. */
export interface Page<T> {
  data: T[];
}

/** A session, read for where it stands. */
export interface SessionState {
  id: string;
  status: string;
}

/** A session event as listed or streamed: messages and tool results have `content`, tool results `is_error`. */
export interface SessionEvent {
  id: string;
  type: string;
  content?: Array<{ type: string; text?: string }>;
  is_error?: boolean;
}

/** A refused request's error envelope. */
export interface ErrorReply {
  error: { type: string; message: string; code?: string; param?: string };
  request_id?: string | null;
}

/** A row of the usage report: which of the ids it has depends on its grouping. */
export interface UsageRow {
  agent_id?: string | null;
  environment_id?: string;
  model?: string;
  day?: string;
  model_requests: number;
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  list_cost: { amount: string; currency: string };
}
