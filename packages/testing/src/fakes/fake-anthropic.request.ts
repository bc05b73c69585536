import { isJsonObject, isOptionalListOf } from './fake-http.listener.js';

/** A content block of a Messages request, in the Anthropic wire format. */
interface MessagesContentBlock {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: string | MessagesContentBlock[];
  is_error?: boolean;
}

/**
 * A Messages request body as the client sent it: the fields the fake and tests read are named, any other
 * field is kept as is.
 */
export interface MessagesRequest {
  model?: string;
  stream?: boolean;
  system?: string | MessagesContentBlock[];
  messages?: Array<{ role: string; content: string | MessagesContentBlock[] }>;
  tools?: Array<{ name: string; description?: string; input_schema?: unknown }>;
  [field: string]: unknown;
}

/**
 * Checks the parts a client could get wrong in a way the fake or a test would misread: the top-level field
 * types, each message's role and each tool's name. The messages' contents are taken as the client sent them.
 */
export function isMessagesRequest(body: unknown): body is MessagesRequest {
  return (
    isJsonObject(body) &&
    (body.model === undefined || typeof body.model === 'string') &&
    (body.stream === undefined || typeof body.stream === 'boolean') &&
    isOptionalListOf(body.messages, (m) => isJsonObject(m) && typeof m.role === 'string') &&
    isOptionalListOf(body.tools, (t) => isJsonObject(t) && typeof t.name === 'string')
  );
}
