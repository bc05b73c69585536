export { authHeaders, createAgentryClient } from './client.js';
export type { AgentryClient } from './client.js';
export { streamSessionEvents } from './session-stream.js';
export type { StreamedEvent } from './session-stream.js';
export type { components } from './generated/openapi.js';
