import { isJsonObject, isOptionalListOf } from './fake-http.listener.js';

/** A message of a chat completion request, in the OpenAI wire format. */
interface ChatCompletionMessage {
  role: string;
  content?: string | Array<{ type: string; text?: string }> | null;
  tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

/** A tool offered in a chat completion request. */
interface ChatCompletionTool {
  type: string;
  function: { name: string; description?: string; parameters?: unknown };
}

/**
 * A chat completion request body as the client sent it: the fields the fake and tests read are named, any
 * other field is kept as is.
 */
export interface ChatCompletionRequest {
  model?: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  messages?: ChatCompletionMessage[];
  tools?: ChatCompletionTool[];
  [field: string]: unknown;
}

/**
 * Checks the parts a client could get wrong in a way the fake or a test would misread: the top-level field
 * types, each message's role and each tool's name. The messages' contents are taken as the client sent them.
 */
export function isChatCompletionRequest(body: unknown): body is ChatCompletionRequest {
  return (
    isJsonObject(body) &&
    (body.model === undefined || typeof body.model === 'string') &&
    (body.stream === undefined || typeof body.stream === 'boolean') &&
    (body.stream_options === undefined || isJsonObject(body.stream_options)) &&
    isOptionalListOf(body.messages, (m) => isJsonObject(m) && typeof m.role === 'string') &&
    isOptionalListOf(
      body.tools,
      (t) => isJsonObject(t) && isJsonObject(t.function) && typeof t.function.name === 'string',
    )
  );
}
