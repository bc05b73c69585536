export { authHeaders, createAgentryClient } from './client.js';
export type { AgentryClient, AgentryClientOptions } from './client.js';
export { StreamRefusedError, streamSessionEvents } from './session-stream.js';
export type { SessionStreamOptions, StreamedEvent } from './session-stream.js';
export type { components, operations, paths } from './generated/openapi.js';
